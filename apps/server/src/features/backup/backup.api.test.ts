import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, count } from 'drizzle-orm';
import * as tar from 'tar';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { plants, readings, users } from '../../db/schema.js';
import { createScratchDatabase } from '../../db/scratch-database.js';
import { type RunningServer, startServer } from '../../server.js';
import { TEST_POSTGRES_URL } from '../../test/harness.js';
import { connectTestGateway } from '../../test/test-gateway.js';
import { provisionDemoFleet } from '../fleet/demo-fleet.js';
import { BackupError, checkManifest, createBackup, restoreBackup } from './backup.js';

const onPostgres = process.env.TEST_DATABASE === 'postgres';
const pgDumpInstalled = spawnSync('pg_dump', ['--version']).status === 0;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A DATA_DIR (and on PostgreSQL a database of its own, so the suite's `test` database is never touched). */
async function place(withTemplate: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sunward-backup-test-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const template = inject('pgliteTemplate');
  if (!onPostgres && withTemplate && template && existsSync(template)) cpSync(template, join(dataDir, 'pg'), { recursive: true });
  let databaseUrl: string | undefined;
  if (onPostgres) {
    const scratch = await createScratchDatabase(TEST_POSTGRES_URL, 'sunward_backup');
    cleanups.push(() => scratch.drop());
    databaseUrl = scratch.url;
  }
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    ADMIN_ACCOUNT: 'admin@backup.test',
    ADMIN_PASSWORD: 'Backup-Password-1',
    LOG_LEVEL: 'silent',
    SIMULATOR: 'off',
  });
  return { dataDir, databaseUrl, config };
}

/** What a restore must bring back: the plants, the readings and the users. */
async function snapshot(server: RunningServer) {
  const { db } = server.database;
  const [stored] = await db.select({ n: count() }).from(readings);
  return {
    plants: await db.select({ id: plants.id, name: plants.name }).from(plants).orderBy(asc(plants.id)),
    readings: Number(stored?.n ?? 0),
    users: await db.select({ id: users.id, account: users.account, passwordHash: users.passwordHash }).from(users).orderBy(asc(users.id)),
  };
}

describe.skipIf(onPostgres && !pgDumpInstalled)(`backup and restore (${onPostgres ? 'PostgreSQL' : 'embedded database'})`, () => {
  it('backs up a seeded server, restores it into a fresh place, and the server reads the same plants, readings and users', async () => {
    const source = await place(true);
    let server = await startServer(source.config, { logger: false });
    let before: Awaited<ReturnType<typeof snapshot>>;
    try {
      const fleet = await provisionDemoFleet(server.database.db, {
        seed: 5,
        mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
        intervalSeconds: 60,
      });
      await server.telemetry.pipeline.reloadDevices();
      const target = fleet.gateways.find((g) => !g.spare && g.devices.length > 0);
      const device = target?.devices[0];
      if (!target || !device) throw new Error('no gateway with devices');
      const gateway = await connectTestGateway(server.telemetry.mqttPort, target.sn, target.key);
      for (let i = 3; i > 0; i--) await gateway.report(Date.now() - i * 60_000, [{ sn: device.sn, proto: device.protocolId, values: {} }]);
      await gateway.close();
      await server.telemetry.pipeline.drain();
      before = await snapshot(server);
    } finally {
      await server.close();
    }
    expect(before.plants.length).toBeGreaterThan(0);
    expect(before.readings).toBeGreaterThanOrEqual(3);
    // A firmware image's bytes stand for every file DATA_DIR keeps beside the database.
    mkdirSync(join(source.dataDir, 'firmware'), { recursive: true });
    writeFileSync(join(source.dataDir, 'firmware', 'image.bin'), 'firmware bytes');
    const key = readFileSync(join(source.dataDir, 'keys', 'firmware-ed25519.pem'), 'utf8');

    const archive = join(source.dataDir, '..', `sunward-backup-${process.pid}.tar.gz`);
    cleanups.push(() => rmSync(archive, { force: true }));
    const manifest = await createBackup(source.config, archive, '9.9.9');
    expect(manifest).toMatchObject({ format: 'sunward-backup', database: onPostgres ? 'postgres' : 'pglite', serverVersion: '9.9.9' });
    expect(manifest.schema.migrations).toBeGreaterThan(20);

    // The target must be empty: the source (not empty) is refused without --force and left as it was.
    await expect(restoreBackup(source.config, archive, { force: false })).rejects.toThrow(/not empty.*--force/);

    const fresh = await place(false);
    await restoreBackup(fresh.config, archive, { force: false });
    expect(readFileSync(join(fresh.dataDir, 'firmware', 'image.bin'), 'utf8')).toBe('firmware bytes');
    expect(readFileSync(join(fresh.dataDir, 'keys', 'firmware-ed25519.pem'), 'utf8')).toBe(key);
    server = await startServer(fresh.config, { logger: false });
    try {
      expect(await snapshot(server)).toEqual(before);
    } finally {
      await server.close();
    }
  }, 180_000);
});

describe('backup archives', () => {
  const migrations = [
    { idx: 0, tag: '0000_first', when: 1000 },
    { idx: 1, tag: '0001_second', when: 2000 },
  ];
  const manifest = {
    format: 'sunward-backup',
    formatVersion: 1,
    serverVersion: '1.0.0',
    database: 'pglite',
    schema: { migrations: 2, latest: '0001_second', latestAt: 2000 },
    createdAt: '2026-01-01T00:00:00.000Z',
    files: 0,
  };

  it('accepts one from this schema or an older one, and refuses one from a newer schema or another format', () => {
    expect(checkManifest(manifest, migrations).database).toBe('pglite');
    expect(
      checkManifest({ ...manifest, schema: { migrations: 1, latest: '0000_first', latestAt: 1000 } }, migrations).schema.migrations,
    ).toBe(1);
    expect(() => checkManifest({ ...manifest, schema: { migrations: 3, latest: '0002_third', latestAt: 3000 } }, migrations)).toThrow(
      /newer than this Sunward's \(0001_second\): upgrade Sunward/,
    );
    expect(() => checkManifest({ ...manifest, formatVersion: 2 }, migrations)).toThrow(BackupError);
    expect(() => checkManifest({ hello: 'world' }, migrations)).toThrow(/not a Sunward backup/);
  });

  it('refuses a file that is no backup, and one of the other database kind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sunward-backup-kind-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'junk.tar.gz'), 'not an archive');
    const target = { dataDir: join(dir, 'data'), databaseUrl: undefined };
    await expect(restoreBackup(target, join(dir, 'junk.tar.gz'), { force: false })).rejects.toThrow(BackupError);
    mkdirSync(join(dir, 'staging'));
    writeFileSync(
      join(dir, 'staging', 'manifest.json'),
      JSON.stringify({ ...manifest, database: 'postgres', schema: { migrations: 1, latest: null, latestAt: 0 } }),
    );
    await tar.c({ gzip: true, file: join(dir, 'pg.tar.gz'), cwd: join(dir, 'staging') }, ['manifest.json']);
    await expect(restoreBackup(target, join(dir, 'pg.tar.gz'), { force: false })).rejects.toThrow(/set DATABASE_URL/);
  });
});
