import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { gatewayTopic, parseGatewayTopic, TOPIC_ROOT } from '@sunward/contracts/gateway-protocol';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { createLogThrottle } from '../lib/log-throttle.js';
import { ingestMetrics } from '../lib/metrics.js';
import { recordGatewayStatus } from './gateway-status.js';
import type { IngestPipeline } from './ingest-pipeline.js';
import { type HeldSession, holdOrderedAckSession, openOrderedAckSession } from './ordered-ack-session.js';
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
  /** This process's persistent sessions on the broker (their MQTT client ids). */
  clientIds: readonly string[];
  /**
   * Resumes another (dead) process's session: stores and acknowledges what the broker kept for it, leaves the share
   * group and ends the session, so the broker sends that process's share to the live ones. Resolves with the
   * number of messages handled; ends early, without error, when the session's owner comes back and takes it.
   */
  adopt(clientId: string): Promise<number>;
}

/** An adopted session is drained once it delivered nothing for this long after leaving the share group. */
const ADOPTION_QUIET_MS = 1000;

/**
 * The server as a client of an external broker (MQTT_URL): several connections in one MQTT 5 shared
 * subscription group, so the broker spreads reports over them and over several server processes.
 * Each PUBACK is sent only after the report is committed, in arrival order (ordered-ack-session.ts); several
 * connections spread the load. Sessions are persistent and named
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
  const clientIds = Array.from({ length: deps.connections }, (_, i) => `sunward-${base}-${i}`);
  // Each report is acknowledged only once it is stored, in arrival order, and a connection's in-flight window is
  // stored in one batch (ordered-ack-session.ts; mqtt.js would hand over one report per batch commit).
  const sessions: HeldSession[] = clientIds.map((clientId, i) =>
    holdOrderedAckSession({
      url: deps.url,
      clientId,
      sessionExpirySeconds: deps.sessionExpirySeconds,
      handle,
      reconnectMs: 1000,
      async onConnect(session) {
        // Subscribing again to a resumed session is harmless, and needed when another process adopted it (it left
        // the share group) while this one was away.
        await session.subscribe(topics);
        // A session from before replies were shared heard every reply on its first connection.
        if (session.sessionPresent && i === 0) await session.unsubscribe([`${TOPIC_ROOT}/+/reply`]);
      },
      // Not stored: not acknowledged; the connection is dropped and the broker redelivers it on the next one.
      onError: (error) =>
        warnings.warn('consumer_connection', { err: error, session: clientId }, 'external broker consumer connection dropped'),
    }),
  );
  // Commands and refusals to gateways: a plain connection of its own (nothing is subscribed on it).
  const publisher: MqttClient = mqtt.connect(deps.url, { clientId: `sunward-${base}-publish`, protocolVersion: 5, reconnectPeriod: 1000 });
  publisher.on('error', (error) => log.error({ err: error }, 'external broker connection error'));
  await Promise.all([...sessions.map((s) => s.ready), new Promise<void>((resolve) => publisher.once('connect', () => resolve()))]);
  log.info({ url: deps.url.replace(/\/\/[^@]*@/, '//***@'), connections: deps.connections }, 'consuming from external MQTT broker');
  async function adopt(clientId: string): Promise<number> {
    // Not mqtt.js: it would hand over one report per batch commit (ordered-ack-session.ts).
    const session = await openOrderedAckSession({
      url: deps.url,
      clientId,
      sessionExpirySeconds: deps.sessionExpirySeconds,
      handle,
    });
    try {
      // Nothing more routed to it; what the broker queued for it still comes, in order.
      if (session.sessionPresent) await session.unsubscribe(topics);
      while (!session.closed && !session.failure && (session.pending > 0 || Date.now() - session.lastMessageAt < ADOPTION_QUIET_MS)) {
        await delay(50);
      }
      // Its owner may have come back and taken the session (the broker closed this connection): it is its own again.
      if (!session.closed && !session.failure) await session.end();
    } finally {
      session.destroy();
    }
    // Not acknowledged, so still in the session: the session is claimed again after the adoption's lease.
    if (session.failure) {
      log.error({ err: session.failure, session: clientId }, 'adopted report not stored: session left for its next holder');
      throw new Error(`broker session ${clientId}: a message could not be stored`);
    }
    if (session.handled > 0 || session.sessionPresent) {
      log.warn({ session: clientId, handled: session.handled }, 'broker session of a stopped server process adopted');
    }
    return session.handled;
  }

  return {
    connections: deps.connections,
    clientIds,
    adopt,
    connected: () => sessions.filter((s) => s.connected).length,
    async publishCommand(gatewaySn, payload) {
      await publisher.publishAsync(gatewayTopic(gatewaySn, 'cmd'), payload, { qos: 1 });
    },
    async publish(topic, payload) {
      if (!publisher.connected) return;
      await publisher.publishAsync(topic, payload, { qos: 1 });
    },
    async stop() {
      await Promise.all(sessions.map((s) => s.unsubscribe(topics)));
    },
    async close() {
      warnings.flush();
      // A graceful stop leaves no session behind: Mosquitto would keep routing shared messages to it.
      // After a crash the session stays, and the same MQTT_CONSUMER_ID resumes it.
      await Promise.all([...sessions.map((s) => s.close()), publisher.endAsync()]);
    },
  };
}
