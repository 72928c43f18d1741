import type { FastifyInstance } from 'fastify';
import { markDataDirInUse } from './admin-accounts.js';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { checkDataDir } from './data-dir.js';
import { type DatabaseHandle, openDatabase, pingDatabase } from './db/client.js';
import { createAuthRepository } from './features/auth/auth.repository.js';
import { FAILURE_WINDOW_MS } from './features/auth/secret-throttle.js';
import { createSecretThrottleRepository } from './features/auth/secret-throttle.repository.js';
import { demoHistoryIngestSettings } from './features/fleet/demo-history.js';
import { createReadiness } from './features/observability/readiness.js';
import { createServerGauges } from './features/observability/server-gauges.js';
import { createPermissionsRepository } from './features/permissions/permissions.repository.js';
import { type SeededAdmin, seedPlatformAdmin } from './features/users/admin-seed.js';
import { createUsersRepository } from './features/users/users.repository.js';
import { createServerLive } from './ingest/live-bus.js';
import { createRegistryEvents } from './ingest/registry-events.js';
import { startTelemetry, type Telemetry } from './ingest/telemetry-service.js';
import { every } from './jobs/timers.js';
import { bindListeners, type Listeners } from './lib/listeners.js';

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** The port actually bound (PORT=0 picks a free one; a taken default PORT another one). */
  port: number;
  /** The default PORT that was taken when another port was used instead (PORT was not set). */
  portInsteadOf: number | undefined;
  /** The default MQTT_PORT that was taken when the embedded broker used another one. */
  mqttPortInsteadOf: number | undefined;
  url: string;
  seededAdmin: SeededAdmin | undefined;
  telemetry: Telemetry;
  /** The shutdown step running now (telemetry, app, listeners, database), undefined outside a close. */
  closeStep: string | undefined;
  close(): Promise<void>;
}

const HOUSEKEEPING_MS = 60 * 60 * 1000;

/**
 * Binds every port, then opens the database, syncs the permission catalogue, seeds the administrator and
 * serves. A taken port or an unusable DATA_DIR stops the start before anything is written (issue 17).
 */
export async function startServer(config: Config, options: { logger?: boolean } = {}): Promise<RunningServer> {
  const listeners = await bindListeners(config);
  let database: DatabaseHandle;
  try {
    // A read-only, missing or full DATA_DIR stops the start here, with one line, before anything is written.
    checkDataDir(config.dataDir, config.dataDirMinFreeMb);
    database = await openDatabase({
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      onIdleError: (error) => process.stderr.write(`database connection lost (${error.message}); reconnecting on next use\n`),
    });
  } catch (error) {
    await listeners.close();
    throw error;
  }
  // The administrator tool (npm run admin) refuses to open the embedded database while this mark says it is in use.
  const unmark = config.databaseUrl ? () => undefined : markDataDirInUse(config.dataDir);
  try {
    const running = await serve(config, options, listeners, database);
    return {
      ...running,
      get closeStep() {
        return running.closeStep;
      },
      async close() {
        await running.close();
        unmark();
      },
    };
  } catch (error) {
    await database.close().catch(() => undefined);
    await listeners.close();
    unmark();
    throw error;
  }
}

async function serve(
  config: Config,
  options: { logger?: boolean },
  listeners: Listeners,
  database: DatabaseHandle,
): Promise<RunningServer> {
  const permissions = createPermissionsRepository(database.db);
  await permissions.syncCatalogue();
  // With DATABASE_URL, changes reach the live connections of every server process (ingest/live-bus.ts).
  const live = createServerLive(config.databaseUrl);
  let telemetry: Telemetry | undefined;
  const ingestStats = () => telemetry?.pipeline.stats ?? { reportsStored: 0, readingsStored: 0, batches: 0, rejected: {}, gaps: 0 };
  const registry = createRegistryEvents();
  // /api/health/ready and /metrics read the running server through these (features/observability).
  const observability = {
    readiness: createReadiness({ database: () => pingDatabase(database.db), broker: () => telemetry?.broker() }),
    gauges: createServerGauges({
      ingestQueue: () => telemetry?.pipeline.pending(),
      databasePool: () => database.poolStats?.(),
      brokerConnections: () => telemetry?.broker(),
      liveConnections: () => live.size,
    }),
  };
  const app = await buildApp({
    config,
    database,
    live,
    registry,
    ingestStats,
    commands: () => telemetry?.commands,
    logger: options.logger ?? true,
    server: listeners.http.server,
    observability,
    sip: true,
  });
  const mqttListeners = listeners.mqtt ? { plain: listeners.mqtt.server, tls: listeners.mqttTls?.server } : undefined;
  telemetry = await startTelemetry(
    config,
    database.db,
    app.log,
    live,
    { ...demoHistoryIngestSettings(config), maxPendingBytes: config.ingestPendingBytes },
    mqttListeners,
    app.jobs,
  );
  const { pipeline } = telemetry;
  registry.onChange(() => pipeline.reloadDevices());
  const seededAdmin = await seedPlatformAdmin(
    { users: createUsersRepository(database.db), permissions, log: app.log },
    { account: config.adminAccount, password: config.adminPassword },
  );
  // The port was bound before the database opened; requests were answered "starting" (503) until now.
  await app.ready();
  await live.start(app.log);
  listeners.serve((req, res) => app.routing(req, res));
  const port = listeners.http.port;
  const authRepository = createAuthRepository(database.db);
  const throttleCounters = createSecretThrottleRepository(database.db);
  await app.jobs.register({
    name: 'housekeeping',
    everyMs: HOUSEKEEPING_MS,
    scope: 'cluster',
    run: () => Promise.all([authRepository.deleteExpired(new Date()), throttleCounters.purge(new Date(), FAILURE_WINDOW_MS)]),
  });
  const running: RunningServer = {
    app,
    database,
    port,
    portInsteadOf: listeners.http.insteadOf,
    mqttPortInsteadOf: listeners.mqtt?.insteadOf,
    url: `http://127.0.0.1:${port}`,
    seededAdmin,
    telemetry: telemetry,
    closeStep: undefined,
    async close() {
      // Readiness answers 503 from here on, while ingest drains and requests in flight finish.
      observability.readiness.startDraining();
      // Each step named while it runs, and logged when it is slow: a shutdown that waits says on what.
      const step = async (name: string, run: () => Promise<void>) => {
        running.closeStep = name;
        const stopWarning = every(10_000, () => app.log.warn({ step: name }, 'shutdown still waiting'));
        try {
          await run();
        } finally {
          stopWarning();
        }
      };
      await step('telemetry', () => telemetry.close());
      await step('app', () => app.close());
      await step('live bus', () => live.close());
      await step('listeners', () => listeners.close());
      await step('database', () => database.close());
      running.closeStep = undefined;
    },
  };
  return running;
}
