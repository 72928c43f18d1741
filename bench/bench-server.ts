// A product server on a scratch PostgreSQL database for the fleet benchmarks (plants, reports, fullscreen):
// no simulator, silent logs, a temporary DATA_DIR, the platform administrator admin@bench.local.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../apps/server/src/config.js';
import type { Database } from '../apps/server/src/db/client.js';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { type RunningServer, startServer } from '../apps/server/src/server.js';

export const BENCH_ADMIN = { account: 'admin@bench.local', password: 'Bench-Password-1' } as const;

/** Starts the server on a fresh database named `sunward_<name>`; `close` stops it and drops the database. */
export async function startBenchServer(name: string): Promise<{ server: RunningServer; db: Database; close(): Promise<void> }> {
  const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const scratch = await createScratchDatabase(pgUrl, `sunward_${name}`);
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), `sunward-${name}-`)),
    DATABASE_URL: scratch.url,
    LOG_LEVEL: 'silent',
    ADMIN_ACCOUNT: BENCH_ADMIN.account,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    SIMULATOR: 'off',
  });
  const server = await startServer(config, { logger: false });
  return {
    server,
    db: server.database.db,
    async close() {
      await server.close();
      await scratch.drop();
    },
  };
}
