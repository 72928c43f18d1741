import type { Server } from 'node:net';
import type { Server as TlsServer } from 'node:tls';
import { DeviceStatus } from '@sunward/contracts/device-status';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { createSecretThrottle } from '../features/auth/secret-throttle.js';
import { createSecretThrottleRepository } from '../features/auth/secret-throttle.repository.js';
import { createCommandChannel } from '../features/commands/command-channel.js';
import { type CommandTracker, createCommandTracker } from '../features/commands/command-tracker.js';
import { createCommandsRepository } from '../features/commands/commands.repository.js';
import type { JobRegistry } from '../jobs/registry.js';
import { createBrokerSessions } from './broker-sessions.js';
import { createConnectionLog } from './connection-log.js';
import { startConsumerSessions } from './consumer-sessions.js';
import { createConsumerSessionsRepository } from './consumer-sessions.repository.js';
import { createDeviceRegistryRepository } from './device-registry.repository.js';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker.js';
import { type ExternalConsumer, startExternalConsumer } from './external-broker.js';
import { createGatewayFeedback } from './gateway-feedback.js';
import { createIngestPipeline, type IngestPipeline, type IngestSettings } from './ingest-pipeline.js';
import type { ClusterSignals } from './live-bus.js';
import type { LiveHub } from './live-hub.js';
import { createRetention, type Retention } from './retention.js';
import { createTelemetryRepository } from './telemetry.repository.js';
import { createTelemetryQueries, type TelemetryQueries } from './telemetry-query.repository.js';

export interface Telemetry {
  pipeline: IngestPipeline;
  /** Commands sent from this process and every reply this process hears (features/commands/command-tracker.ts). */
  commands: CommandTracker;
  retention: Retention;
  queries: TelemetryQueries;
  live: LiveHub;
  /** The embedded broker's port (undefined with an external broker). */
  mqttPort: number | undefined;
  /** The embedded broker's MQTT-over-TLS port, when MQTT_TLS_CERT_FILE and MQTT_TLS_KEY_FILE are set. */
  mqttTlsPort: number | undefined;
  /** The broker in use: up (embedded: listening; external: a consumer connection is up) and its connections. */
  broker(): { kind: 'embedded' | 'external'; up: boolean; connections: number };
  close(): Promise<void>;
}

const SWEEP_MS = 15_000;
const PARTITION_CHECK_MS = 6 * 3600 * 1000;
const RETENTION_MS = 10 * 60 * 1000;

/** Starts ingest: partitions, the pipeline, the broker, and the offline sweep. Runnable on its own for scale-out. */
export async function startTelemetry(
  config: Config,
  db: Database,
  log: FastifyBaseLogger,
  /** With `signals`, replies to commands other server processes sent are handed to them. */
  live: LiveHub & { signals?: ClusterSignals | undefined },
  settings: Partial<IngestSettings> | undefined,
  /** The embedded broker's ports, bound before anything was written (lib/listeners.ts). */
  listeners: { plain: Server; tls: TlsServer | undefined } | undefined,
  /** The server's job registry: the offline sweep, partitions, retention and the plant-day refresh run through it. */
  jobs: Pick<JobRegistry, 'register' | 'owner'>,
): Promise<Telemetry> {
  // An external broker's share group spreads a gateway's reports over every server process (energy: see there).
  const repository = createTelemetryRepository(db, { soleWriter: !config.mqtt.url });
  await repository.ensureReadingPartitions(new Date(), 2);
  const queries = createTelemetryQueries(db);
  const connectionLog = createConnectionLog(db, log);
  let broker: EmbeddedBroker | undefined;
  let consumer: ExternalConsumer | undefined;
  // Refused reports and replies are answered on the gateway's own …/refused topics, through whichever broker is in use.
  const feedback = createGatewayFeedback({
    publish: (topic, payload) => (broker ?? consumer)?.publish(topic, payload) ?? Promise.resolve(),
    log,
    connectionLog,
  });
  const pipeline = createIngestPipeline({
    connectionLog,
    feedback,
    refreshPlantDays: queries.refreshPlantDays,
    refreshPlantSummaries: queries.refreshPlantSummaries,
    repository,
    deviceRegistry: createDeviceRegistryRepository(db),
    log,
    live,
    jobs,
    // With an external broker each consumer connection holds one report until it is stored: flush as soon as all of them wait.
    settings: { ...(config.mqtt.url ? { flushAtReports: config.mqtt.consumers } : {}), ...settings },
  });
  await pipeline.start();
  const channel = createCommandChannel({
    publish: (sn, payload) => {
      const target = broker ?? consumer;
      if (!target) return Promise.reject(new Error('no broker'));
      return target.publishCommand(sn, payload);
    },
    log,
    feedback,
  });
  const commands = createCommandTracker({
    channel,
    store: createCommandsRepository(db),
    signals: live.signals,
    log,
  });
  const onReply = (sn: string, payload: Buffer) => commands.handleReply(sn, payload);
  if (config.mqtt.url) {
    consumer = await startExternalConsumer({
      url: config.mqtt.url,
      consumerId: config.mqtt.consumerId,
      connections: config.mqtt.consumers,
      shareGroup: config.mqtt.shareGroup,
      sessionExpirySeconds: config.mqtt.sessionExpirySeconds,
      repository,
      pipeline,
      log,
      onReply,
    });
  } else {
    broker = await startEmbeddedBroker({
      port: config.mqtt.port,
      host: config.mqtt.host,
      repository,
      pipeline,
      log,
      fallbackPorts: config.mqtt.portExplicit ? 0 : 10,
      listeners,
      tls: config.mqtt.tls,
      onReply,
      // Gateways' persistent sessions survive a restart: subscriptions and unacknowledged commands.
      persistence: createBrokerSessions(db, log),
      throttle: createSecretThrottle({ repository: createSecretThrottleRepository(db), policy: config.signIn }),
      connectionLog,
    });
  }
  // Sessions on the external broker: a process killed without ending its sessions leaves them routed to; the others
  // adopt them once it stops beating (ingest/consumer-sessions.ts).
  const sessions = consumer
    ? await startConsumerSessions({
        consumer,
        repository: createConsumerSessionsRepository(db),
        jobs,
        log,
        takeoverMs: config.mqtt.takeoverSeconds * 1000,
      })
    : undefined;
  const retention = createRetention(db, log, {
    rawRetentionDays: config.rawRetentionDays,
    connectionLogRetentionDays: config.connectionLogRetentionDays,
  });
  // Cluster jobs: with several ingest processes on one database each due time runs once (jobs/registry.ts).
  const removeJobs = await Promise.all([
    jobs.register({
      name: 'offline_sweep',
      everyMs: SWEEP_MS,
      scope: 'cluster',
      run: () => pipeline.sweepOffline(config.offlineAfterIntervals, DeviceStatus.OFFLINE),
    }),
    jobs.register({
      name: 'reading_partitions',
      everyMs: PARTITION_CHECK_MS,
      scope: 'cluster',
      run: () => repository.ensureReadingPartitions(new Date(), 2),
    }),
    jobs.register({
      name: 'retention',
      everyMs: RETENTION_MS,
      scope: 'cluster',
      run: async () => {
        await retention.aggregate('5m');
        await retention.aggregate('hourly');
        await retention.dropExpiredPartitions();
        await retention.purgeConnectionLog();
      },
    }),
  ]);
  return {
    pipeline,
    commands,
    retention,
    queries,
    live,
    mqttPort: broker?.port,
    mqttTlsPort: broker?.tlsPort,
    broker() {
      if (broker) return { kind: 'embedded' as const, ...broker.state() };
      const connections = consumer?.connected() ?? 0;
      return { kind: 'external' as const, up: connections > 0, connections };
    },
    async close() {
      await Promise.all(removeJobs.map((remove) => remove()));
      commands.close();
      await consumer?.stop();
      await broker?.close();
      await pipeline.drain();
      pipeline.stop();
      await consumer?.close();
      await sessions?.close();
      await connectionLog.close();
    },
  };
}
