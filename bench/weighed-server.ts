// The real server serving a built console, for the page benchmarks (page-weight, lighthouse): PGlite in a
// temporary folder, the test administrator, no demo fleet. Outside vitest, so it does not use test/harness.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../apps/server/src/config.js';
import { gateways } from '../apps/server/src/db/schema.js';
import { hashGatewayKey } from '../apps/server/src/ingest/gateway-auth.js';
import { type RunningServer, startServer } from '../apps/server/src/server.js';
import { ADMIN } from '../apps/server/src/test/harness.js';

export const WEB_DIST = process.env.WEB_DIST ?? fileURLToPath(new URL('../apps/web/dist', import.meta.url));

export interface WeighedServer extends RunningServer {
  registerGateway(sn: string, key: string): Promise<number>;
}

export async function startWeighedServer(): Promise<WeighedServer> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'sunward-weigh-')),
    LOG_LEVEL: 'silent',
    ADMIN_ACCOUNT: ADMIN.account,
    ADMIN_PASSWORD: ADMIN.password,
    SIMULATOR: 'off',
    WEB_DIST,
  });
  const server = await startServer(config, { logger: false });
  return {
    ...server,
    async registerGateway(sn: string, key: string) {
      const [row] = await server.database.db
        .insert(gateways)
        .values({ sn, keyHash: hashGatewayKey(key) })
        .returning({ id: gateways.id });
      if (!row) throw new Error('gateway not registered');
      return row.id;
    },
  };
}
