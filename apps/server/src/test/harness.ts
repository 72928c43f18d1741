import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuiltInRole } from '@sunward/contracts/roles';
import { eq } from 'drizzle-orm';
import { inject } from 'vitest';
import { loadConfig } from '../config.js';
import { companies, gateways, users as usersTable } from '../db/schema.js';
import { createScratchDatabase } from '../db/scratch-database.js';
import { createAuthRepository } from '../features/auth/auth.repository.js';
import { hashPassword } from '../features/auth/password.js';
import { createPermissionsRepository } from '../features/permissions/permissions.repository.js';
import { createUsersRepository } from '../features/users/users.repository.js';
import { hashGatewayKey } from '../ingest/gateway-auth.js';
import { type RunningServer, startServer } from '../server.js';

import { TEST_POSTGRES_URL } from './postgres-url.js';

export { TEST_POSTGRES_URL };

export const ADMIN = { account: 'admin@test.local', password: 'Admin-Password-1' };

export interface TestServer extends RunningServer {
  /** Creates a user with a built-in role and returns its account and password. */
  createUser(
    role: BuiltInRole,
    account?: string,
    options?: { companyId?: number },
  ): Promise<{ id: number; account: string; password: string }>;
  /** Creates a company and returns its id. */
  createCompany(name: string): Promise<number>;
  /**
   * Stops the server and starts it again on the same database and DATA_DIR (a crash or a deploy); the
   * returned server replaces this one. MQTT_PORT set by the test keeps gateways reconnecting to it.
   */
  restart(): Promise<TestServer>;
  /** Registers a gateway in the registry, unbound (as the factory does); returns its id. */
  registerGateway(sn: string, key: string, companyId?: number): Promise<number>;
  repositories: {
    users: ReturnType<typeof createUsersRepository>;
    auth: ReturnType<typeof createAuthRepository>;
    permissions: ReturnType<typeof createPermissionsRepository>;
  };
}

/** Closes a test server, and says on stderr which step a close still waits on after a minute (tests log nothing else). */
async function closeWatched(server: RunningServer): Promise<void> {
  const started = Date.now();
  const watch = setInterval(
    () => console.error(`server close still waiting on "${server.closeStep}" after ${Math.round((Date.now() - started) / 1000)} s`),
    60_000,
  );
  watch.unref();
  try {
    await server.close();
  } finally {
    clearInterval(watch);
  }
}

/**
 * A real server on an ephemeral port with a fresh database: PGlite in a temporary DATA_DIR, or a new
 * database on the machine's PostgreSQL when TEST_DATABASE=postgres. Dropped again by close().
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sunward-test-'));
  const template = inject('pgliteTemplate');
  if (process.env.TEST_DATABASE !== 'postgres' && template && existsSync(template))
    cpSync(template, join(dataDir, 'pg'), { recursive: true });
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (process.env.TEST_DATABASE === 'postgres') {
    const scratch = await createScratchDatabase(TEST_POSTGRES_URL, 'sunward_t', inject('postgresTemplate'));
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
  }
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    ADMIN_ACCOUNT: ADMIN.account,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'silent',
    MQTT_PORT: '0',
    SIP_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    // Suites that make thousands of requests (API fuzz, tenant sweeps) are not throttled; rate-limit.api.test.ts sets low limits.
    RATE_LIMIT_PER_TOKEN: '10000000',
    RATE_LIMIT_PER_ADDRESS: '10000000',
    ...env,
  });
  let users = 0;
  const wrap = (server: RunningServer): TestServer => {
    const { db } = server.database;
    const repositories = {
      users: createUsersRepository(db),
      auth: createAuthRepository(db),
      permissions: createPermissionsRepository(db),
    };
    return {
      ...server,
      repositories,
      async createUser(role, account, options = {}) {
        const roleId = await repositories.permissions.builtInRoleId(role);
        if (roleId === undefined) throw new Error(`no role ${role}`);
        const name = account ?? `${role}-${++users}@test.local`;
        const password = `Pw-${role}-${users}-secret`;
        const id = await repositories.users.create({
          account: name,
          passwordHash: await hashPassword(password),
          nickname: name.split('@')[0] ?? name,
          roleId,
        });
        if (options.companyId !== undefined) await db.update(usersTable).set({ companyId: options.companyId }).where(eq(usersTable.id, id));
        return { id, account: name, password };
      },
      async createCompany(name) {
        const [row] = await db.insert(companies).values({ name }).returning({ id: companies.id });
        if (!row) throw new Error('company not created');
        return row.id;
      },
      async registerGateway(sn, key, companyId) {
        const [row] = await db
          .insert(gateways)
          .values({ sn, keyHash: hashGatewayKey(key), companyId: companyId ?? null })
          .returning({ id: gateways.id });
        if (!row) throw new Error('gateway not registered');
        return row.id;
      },
      async restart() {
        await closeWatched(server);
        return wrap(await startServer(config, { logger: false }));
      },
      async close() {
        await closeWatched(server);
        await dropDatabase?.();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  };
  return wrap(await startServer(config, { logger: false }));
}
