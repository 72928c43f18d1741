import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import * as tar from 'tar';
import { migrationsFolder } from '../../db/client.js';

/** A backup or restore that cannot be done; the message is one line saying why and what to do. */
export class BackupError extends Error {}

export const BACKUP_FORMAT = 'sunward-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** manifest.json at the top of every archive. */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  serverVersion: string;
  database: 'pglite' | 'postgres';
  /** The database's applied migrations: how many, the newest one's tag and its timestamp (drizzle's folderMillis). */
  schema: { migrations: number; latest: string | null; latestAt: number };
  createdAt: string;
  /** Files copied from DATA_DIR (firmware images, keys, uploads, logos, outboxes, the demo fleet). */
  files: number;
}

/** What the settings say about where data lives (a subset of Config). */
export interface BackupTarget {
  dataDir: string;
  databaseUrl: string | undefined;
}

/**
 * DATA_DIR entries that are not data: the embedded database (dumped on its own), half-made databases,
 * the running server's mark, write probes.
 */
function isTransient(name: string): boolean {
  return name === 'pg' || name.startsWith('pg.partial-') || name === 'server.pid' || name.startsWith('.write-test-');
}

interface JournalEntry {
  idx: number;
  tag: string;
  when: number;
}

/** This build's migrations, oldest first. */
export function buildMigrations(): JournalEntry[] {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] };
  return journal.entries;
}

function schemaOf(rows: { n: number | string; latest: number | string | null }[]): BackupManifest['schema'] {
  const row = rows[0];
  const latestAt = Number(row?.latest ?? 0);
  return {
    migrations: Number(row?.n ?? 0),
    latest: buildMigrations().find((m) => m.when === latestAt)?.tag ?? null,
    latestAt,
  };
}

const SCHEMA_QUERY = 'select count(*) as n, max(created_at) as latest from drizzle.__drizzle_migrations';

/** Runs a PostgreSQL client tool; a missing tool or a failure becomes one line naming it. */
function runTool(tool: 'pg_dump' | 'pg_restore', args: string[]): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === 'ENOENT'
            ? `${tool} was not found: install PostgreSQL's client tools (Debian/Ubuntu: apt-get install postgresql-client), the server's major version or newer.`
            : `${tool} could not run: ${error.message}`,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolveRun();
      else {
        const reason = stderr.split('\n').find((line) => line.trim() !== '') ?? `exit code ${code}`;
        reject(new BackupError(`${tool} failed: ${reason.trim()}`));
      }
    });
  });
}

async function withPgClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function copyDataFiles(from: string, to: string): number {
  mkdirSync(to, { recursive: true });
  if (!existsSync(from)) return 0;
  let files = 0;
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (isTransient(entry.name)) continue;
    cpSync(join(from, entry.name), join(to, entry.name), { recursive: true, preserveTimestamps: true });
    files += entry.isDirectory() ? countFiles(join(from, entry.name)) : 1;
  }
  return files;
}

function countFiles(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).length;
}

/**
 * Writes one .tar.gz: manifest.json, the database (PGlite's data directory dump, or pg_dump's custom
 * format), and DATA_DIR's files. The embedded database has one user at a time, so its server must be
 * stopped (the caller checks); PostgreSQL is dumped while the server runs (pg_dump reads one snapshot).
 */
export async function createBackup(target: BackupTarget, out: string, serverVersion: string): Promise<BackupManifest> {
  const staging = mkdtempSync(join(tmpdir(), 'sunward-backup-'));
  try {
    mkdirSync(join(staging, 'database'));
    let schema: BackupManifest['schema'];
    if (target.databaseUrl) {
      const url = target.databaseUrl;
      schema = await withPgClient(url, async (client) => schemaOf((await client.query(SCHEMA_QUERY)).rows)).catch((error: Error) => {
        throw new BackupError(
          error.message.includes('__drizzle_migrations')
            ? 'The database at DATABASE_URL holds no Sunward data (no migrations applied): check DATABASE_URL.'
            : `The database at DATABASE_URL could not be read: ${error.message}`,
        );
      });
      await runTool('pg_dump', [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--file=${join(staging, 'database', 'postgres.dump')}`,
        `--dbname=${url}`,
      ]);
    } else {
      const dir = join(target.dataDir, 'pg');
      if (!existsSync(join(dir, 'PG_VERSION'))) throw new BackupError(`DATA_DIR ${target.dataDir} holds no database to back up.`);
      const db = await PGlite.create(dir);
      try {
        schema = schemaOf((await db.query<{ n: number; latest: number | null }>(SCHEMA_QUERY)).rows);
        const dump = await db.dumpDataDir('gzip');
        writeFileSync(join(staging, 'database', 'pglite.tar.gz'), Buffer.from(await dump.arrayBuffer()));
      } finally {
        await db.close();
      }
    }
    const files = copyDataFiles(target.dataDir, join(staging, 'files'));
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      serverVersion,
      database: target.databaseUrl ? 'postgres' : 'pglite',
      schema,
      createdAt: new Date().toISOString(),
      files,
    };
    writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const destination = resolve(out);
    mkdirSync(dirname(destination), { recursive: true });
    // Written beside its name and renamed when complete: a failed backup never leaves a partial archive.
    const partial = join(dirname(destination), `.${basename(destination)}.partial-${process.pid}`);
    try {
      await tar.c({ gzip: true, file: partial, cwd: staging, portable: true }, ['manifest.json', 'database', 'files']);
      renameSync(partial, destination);
    } catch (error) {
      rmSync(partial, { force: true });
      throw error;
    }
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Refuses an archive this build cannot restore: another format, or a database schema newer than this build's. */
export function checkManifest(manifest: unknown, migrations: readonly JournalEntry[] = buildMigrations()): BackupManifest {
  const m = manifest as Partial<BackupManifest> | undefined;
  if (
    m?.format !== BACKUP_FORMAT ||
    typeof m.formatVersion !== 'number' ||
    !m.schema ||
    (m.database !== 'pglite' && m.database !== 'postgres')
  )
    throw new BackupError('This file is not a Sunward backup (no valid manifest.json).');
  if (m.formatVersion > BACKUP_FORMAT_VERSION)
    throw new BackupError(
      `This backup has format ${m.formatVersion}, newer than this Sunward reads (${BACKUP_FORMAT_VERSION}): restore it with a newer Sunward.`,
    );
  const newest = migrations.at(-1)?.when ?? 0;
  if (m.schema.latestAt > newest || m.schema.migrations > migrations.length)
    throw new BackupError(
      `This backup's database schema (${m.schema.latest ?? `${m.schema.migrations} migrations`}, Sunward ${m.serverVersion}) is newer than this Sunward's (${migrations.at(-1)?.tag}): upgrade Sunward, then restore.`,
    );
  return m as BackupManifest;
}

function isNonEmptyDir(dir: string): boolean {
  return existsSync(dir) && readdirSync(dir).some((name) => !name.startsWith('.write-test-'));
}

/**
 * Restores an archive into the configured database and DATA_DIR. Refuses a non-empty target unless
 * `force` (then the target's data is replaced), an archive of the other database kind, and one from a
 * newer schema. The next start migrates an older schema as usual.
 */
export async function restoreBackup(target: BackupTarget, archive: string, options: { force: boolean }): Promise<BackupManifest> {
  if (!existsSync(archive)) throw new BackupError(`No backup file at ${archive}.`);
  const staging = mkdtempSync(join(tmpdir(), 'sunward-restore-'));
  try {
    try {
      await tar.x({ file: archive, cwd: staging, strict: true });
    } catch (error) {
      throw new BackupError(`${archive} is not a readable .tar.gz backup (${(error as Error).message}).`);
    }
    const manifestFile = join(staging, 'manifest.json');
    const manifest = checkManifest(existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : undefined);
    const kind = target.databaseUrl ? 'postgres' : 'pglite';
    if (manifest.database !== kind)
      throw new BackupError(
        manifest.database === 'postgres'
          ? 'This backup is of a PostgreSQL database: set DATABASE_URL to the database to restore it into.'
          : 'This backup is of the embedded database: unset DATABASE_URL to restore it into DATA_DIR.',
      );
    const dataDir = resolve(target.dataDir);
    if (!options.force && isNonEmptyDir(dataDir))
      throw new BackupError(`DATA_DIR ${dataDir} is not empty: restore into an empty one, or add --force to replace what it holds.`);
    if (target.databaseUrl) {
      const url = target.databaseUrl;
      const tables = await withPgClient(url, async (client) => {
        const result = await client.query<{ n: string }>(
          "select count(*) as n from information_schema.tables where table_schema in ('public', 'drizzle')",
        );
        return Number(result.rows[0]?.n ?? 0);
      }).catch((error: Error) => {
        throw new BackupError(`The database at DATABASE_URL could not be reached: ${error.message}`);
      });
      if (tables > 0 && !options.force)
        throw new BackupError('The database at DATABASE_URL is not empty: restore into an empty database, or add --force to replace it.');
      if (tables > 0)
        await withPgClient(url, (client) =>
          client.query('drop schema if exists drizzle cascade; drop schema if exists public cascade; create schema public;'),
        );
      await runTool('pg_restore', [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        `--dbname=${url}`,
        join(staging, 'database', 'postgres.dump'),
      ]);
    }
    if (options.force && existsSync(dataDir))
      for (const name of readdirSync(dataDir)) if (name !== 'server.pid') rmSync(join(dataDir, name), { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    if (!target.databaseUrl) {
      // Loaded beside its place and renamed once complete, like a first start's database (db/client.ts).
      const partial = join(dataDir, `pg.partial-${process.pid}`);
      const dump = readFileSync(join(staging, 'database', 'pglite.tar.gz'));
      const db = await PGlite.create(partial, { loadDataDir: new Blob([dump]) });
      await db.query('select 1');
      await db.close();
      renameSync(partial, join(dataDir, 'pg'));
    }
    if (existsSync(join(staging, 'files'))) cpSync(join(staging, 'files'), dataDir, { recursive: true, preserveTimestamps: true });
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
