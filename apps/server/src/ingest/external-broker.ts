import { hostname } from 'node:os';
import { gatewayTopic, parseGatewayTopic, TOPIC_ROOT } from '@sunward/contracts/gateway-protocol';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { createLogThrottle } from '../lib/log-throttle.js';
import { ingestMetrics } from '../lib/metrics.js';
import { recordGatewayStatus } from './gateway-status.js';
import type { IngestPipeline } from './ingest-pipeline.js';
import type { TelemetryRepository } from './telemetry.repository.js';

export interface ExternalConsumer {
  connections: number;
  /** Consumer connections up now (readiness, /metrics). */
  connected(): number;
  publishCommand(gatewaySn: string, payload: string): Promise<void>;
  /** Publishes to any topic (QoS 1): refusals answered to a gateway. */
  publish(topic: string, payload: string): Promise<void>;
  /** Leaves the share group so the broker sends new reports to the other servers only. */
  stop(): Promise<void>;
  /** Ends the sessions (expiry 0): call after the pipeline has stored and acknowledged what it held. */
  close(): Promise<void>;
}

/**
 * The server as a client of an external broker (MQTT_URL): several connections in one MQTT 5 shared
 * subscription group, so the broker spreads reports over them and over several server processes.
 * Each PUBACK is sent only after the report is committed (customHandleAcks); mqtt.js handles one
 * packet at a time per connection, hence several connections. Sessions are persistent and named
 * stably (MQTT_CONSUMER_ID), so after a crash the broker redelivers what was not acknowledged.
 * A graceful stop unsubscribes, stores and acknowledges what it holds, then ends its sessions.
 */
export async function startExternalConsumer(deps: {
  url: string;
  consumerId: string | undefined;
  connections: number;
  shareGroup: string;
  sessionExpirySeconds: number;
  repository: TelemetryRepository;
  pipeline: IngestPipeline;
  log: FastifyBaseLogger;
  onReply: (gatewaySn: string, payload: Buffer) => void;
}): Promise<ExternalConsumer> {
  const { repository, pipeline, log } = deps;
  const gatewayIds = new Map<string, number>();
  // A fleet of unregistered gateways would otherwise write one WARN line per message (issue 17).
  const warnings = createLogThrottle(log);
  const base = deps.consumerId ?? `${hostname()}`;

  // Only registered gateways are remembered: one registered after its first message (an import while it
  // was already sending) is found on its next one, instead of having its reports dropped until a restart.
  async function gatewayId(sn: string): Promise<number | null> {
    const cached = gatewayIds.get(sn);
    if (cached !== undefined) return cached;
    const id = (await repository.gatewayCredentials(sn))?.id;
    if (id === undefined) return null;
    gatewayIds.set(sn, id);
    return id;
  }

  async function handle(topic: string, payload: Buffer): Promise<void> {
    const parsed = parseGatewayTopic(topic);
    if (!parsed) return;
    const id = await gatewayId(parsed.sn);
    if (id === null) {
      ingestMetrics.refused.inc({ reason: 'unknown_gateway' });
      warnings.warn(
        'unknown_gateway',
        { event: 'report_rejected', reason: 'unknown_gateway', gateway: parsed.sn },
        'message from an unregistered gateway dropped',
      );
      return;
    }
    if (parsed.kind === 'report') return pipeline.submitReport({ id, sn: parsed.sn }, payload);
    if (parsed.kind === 'reply') return deps.onReply(parsed.sn, payload);
    if (parsed.kind === 'status' && !(await recordGatewayStatus(repository, id, payload, null))) {
      warnings.warn('status_rejected', { event: 'status_rejected', gateway: parsed.sn }, 'malformed gateway status dropped');
    }
  }

  // Replies are shared too (issue 26 part 2): one process hears each and records it once; a reply to a command
  // another process sent is handed to that process (features/commands/command-tracker.ts).
  const replies = `$share/${deps.shareGroup}/${TOPIC_ROOT}/+/reply`;
  const topics = [`$share/${deps.shareGroup}/${TOPIC_ROOT}/+/report`, `$share/${deps.shareGroup}/${TOPIC_ROOT}/+/status`, replies];
  const clients: MqttClient[] = [];
  for (let i = 0; i < deps.connections; i++) {
    const client = mqtt.connect(deps.url, {
      clientId: `sunward-${base}-${i}`,
      protocolVersion: 5,
      clean: false,
      properties: { sessionExpiryInterval: deps.sessionExpirySeconds },
      reconnectPeriod: 1000,
      customHandleAcks: (topic, message, _packet, done) => {
        handle(topic, message).then(
          () => done(0),
          // Not stored: no PUBACK; dropping the connection makes the broker redeliver it.
          (error: unknown) => {
            log.error({ err: error, topic }, 'report not stored: connection dropped for redelivery');
            client.stream?.destroy();
          },
        );
      },
    });
    client.on('connect', (connack) => {
      // A resumed session keeps its subscriptions; subscribing again is harmless.
      if (!connack.sessionPresent) client.subscribe(topics, { qos: 1 });
      else {
        // A session from before replies were shared: the shared reply topic, and no longer every reply on the first connection.
        client.subscribe(replies, { qos: 1 });
        if (i === 0) client.unsubscribe(`${TOPIC_ROOT}/+/reply`);
      }
    });
    client.on('error', (error) => log.error({ err: error }, 'external broker connection error'));
    clients.push(client);
  }
  await Promise.all(clients.map((c) => new Promise<void>((resolve) => (c.connected ? resolve() : c.once('connect', () => resolve())))));
  log.info({ url: deps.url.replace(/\/\/[^@]*@/, '//***@'), connections: deps.connections }, 'consuming from external MQTT broker');
  return {
    connections: deps.connections,
    connected: () => clients.filter((c) => c.connected).length,
    async publishCommand(gatewaySn, payload) {
      const client = clients[0];
      if (!client) throw new Error('no broker connection');
      await client.publishAsync(gatewayTopic(gatewaySn, 'cmd'), payload, { qos: 1 });
    },
    async publish(topic, payload) {
      const client = clients[0];
      if (!client?.connected) return;
      await client.publishAsync(topic, payload, { qos: 1 });
    },
    async stop() {
      await Promise.all(clients.map((c) => (c.connected ? c.unsubscribeAsync(topics).then(() => undefined) : Promise.resolve())));
    },
    async close() {
      warnings.flush();
      // A graceful stop leaves no session behind: Mosquitto would keep routing shared messages to it.
      // After a crash the session stays, and the same MQTT_CONSUMER_ID resumes it.
      await Promise.all(clients.map((c) => c.endAsync(false, { properties: { sessionExpiryInterval: 0 } })));
    },
  };
}
