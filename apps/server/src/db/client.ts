import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { DataDirError } from '../data-dir.js';
import { rawRows } from './rows.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** The common query surface of both drivers; feature repositories only see this. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL's connection pool figures (for /metrics); absent on PGlite, which has one connection. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** The migrations this build applies (db/migrations; beside the bundle in dist/). */
export const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

// Any constant works; it only has to be the same in every server process sharing one database.
const MIGRATION_LOCK_ID = 704_221_001;

/** Opens the database named by the settings (PGlite in DATA_DIR, or DATABASE_URL) and applies migrations. */
export async function openDatabase(options: {
  dataDir: string;
  databaseUrl: string | undefined;
  onIdleError?: (error: Error) => void;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // JIT off: the server's queries are short, and PostgreSQL compiled the live-summary refresh (estimated
    // costly through its per-device subqueries) for 1.6 s of CPU to run 0.3 s, every 5 s under ingest
    // (docs/benchmarks.md "Ingest lag after issue 16").
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, options: '-c jit=off' });
    // An idle connection the server ends (database restart, admin command) must not crash the
    // process: the pool drops it and the next query opens a new one.
    pool.on('error', (error) => options.onIdleError?.(error));
    const db = drizzlePg(pool, { schema });
    // Several servers may start together against one database: only one migrates at a time.
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
      client.release();
    }
    return {
      db: db as unknown as Database,
      kind: 'postgres',
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => pool.end(),
    };
  }
  const dir = join(options.dataDir, 'pg');
  mkdirSync(options.dataDir, { recursive: true });
  if (!existsSync(join(dir, 'PG_VERSION'))) await createPgliteDatabase(options.dataDir, dir);
  const client = await PGlite.create(dir);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Database, kind: 'pglite', close: () => client.close() };
}

/**
 * A new embedded database is built beside its place (DATA_DIR/pg.partial-<pid>) and moved into place
 * only once it is created and migrated: a first start that fails (disk full, read-only, killed) never
 * leaves a half-made DATA_DIR/pg that the next start would take for a database.
 */
async function createPgliteDatabase(dataDir: string, dir: string): Promise<void> {
  // What earlier attempts left when they died: never a database.
  for (const entry of readdirSync(dataDir))
    if (entry.startsWith('pg.partial-')) rmSync(join(dataDir, entry), { recursive: true, force: true });
  if (existsSync(dir)) {
    if (readdirSync(dir).length > 0)
      throw new DataDirError(`DATA_DIR ${dir} is not a complete database (no PG_VERSION): move it away to start afresh.`);
    rmSync(dir, { recursive: true, force: true });
  }
  const partial = join(dataDir, `pg.partial-${process.pid}`);
  mkdirSync(partial);
  let client: PGlite | undefined;
  try {
    client = await PGlite.create(partial);
    await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
    await client.close();
    client = undefined;
    renameSync(partial, dir);
  } catch (error) {
    await client?.close().catch(() => undefined);
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}

/** Cheap liveness probe for /api/health. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}

/**
 * @deprecated Rows typed by hand: use `sqlRows` / `tableRows` (db/rows.ts), which derive the row type from the
 * schema and convert each column as drizzle does. Kept only for the raw queries not yet moved (ingest/, logs/,
 * reports/ and a few tests); the type argument is an unchecked claim about what the query answers.
 * Note: int8 columns arrive as numbers on PGlite and strings on pg; cast in SQL where it matters.
 */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  return (await rawRows(db, query)) as T[];
}
