import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { checkDataDir } from './data-dir.js';
import { type DatabaseHandle, openDatabase } from './db/client.js';
import { createAuthRepository } from './features/auth/auth.repository.js';
import { FAILURE_WINDOW_MS } from './features/auth/secret-throttle.js';
import { createSecretThrottleRepository } from './features/auth/secret-throttle.repository.js';
import { demoHistoryIngestSettings } from './features/fleet/demo-history.js';
import { createPermissionsRepository } from './features/permissions/permissions.repository.js';
import { type SeededAdmin, seedPlatformAdmin } from './features/users/admin-seed.js';
import { createUsersRepository } from './features/users/users.repository.js';
import { createLiveHub } from './ingest/live-hub.js';
import { createRegistryEvents } from './ingest/registry-events.js';
import { startTelemetry, type Telemetry } from './ingest/telemetry-service.js';

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** The port actually bound (PORT=0 picks a free one). */
  port: number;
  url: string;
  seededAdmin: SeededAdmin | undefined;
  telemetry: Telemetry;
  close(): Promise<void>;
}

const HOUSEKEEPING_MS = 60 * 60 * 1000;

/** Opens the database, syncs the permission catalogue, seeds the administrator and listens. */
export async function startServer(config: Config, options: { logger?: boolean } = {}): Promise<RunningServer> {
  // A read-only, missing or full DATA_DIR stops the start here, with one line, before anything is written.
  checkDataDir(config.dataDir, config.dataDirMinFreeMb);
  const database = await openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    onIdleError: (error) => process.stderr.write(`database connection lost (${error.message}); reconnecting on next use\n`),
  });
  try {
    const permissions = createPermissionsRepository(database.db);
    await permissions.syncCatalogue();
    const live = createLiveHub();
    let telemetry: Telemetry | undefined;
    const ingestStats = () => telemetry?.pipeline.stats ?? { reportsStored: 0, readingsStored: 0, batches: 0, rejected: {}, gaps: 0 };
    const registry = createRegistryEvents();
    const app = await buildApp({
      config,
      database,
      live,
      registry,
      ingestStats,
      commands: () => telemetry?.commands,
      logger: options.logger ?? true,
    });
    telemetry = await startTelemetry(config, database.db, app.log, live, demoHistoryIngestSettings(config));
    const { pipeline } = telemetry;
    registry.onChange(() => pipeline.reloadDevices());
    const seededAdmin = await seedPlatformAdmin(
      { users: createUsersRepository(database.db), permissions, log: app.log },
      { account: config.adminAccount, password: config.adminPassword },
    );
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const authRepository = createAuthRepository(database.db);
    const throttleCounters = createSecretThrottleRepository(database.db);
    const housekeeping = setInterval(() => {
      authRepository.deleteExpired(new Date()).catch((error: unknown) => app.log.error({ err: error }, 'housekeeping failed'));
      throttleCounters.purge(new Date(), FAILURE_WINDOW_MS).catch((error: unknown) => app.log.error({ err: error }, 'housekeeping failed'));
    }, HOUSEKEEPING_MS);
    housekeeping.unref();
    return {
      app,
      database,
      port,
      url: `http://127.0.0.1:${port}`,
      seededAdmin,
      telemetry: telemetry,
      async close() {
        clearInterval(housekeeping);
        await telemetry.close();
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}
