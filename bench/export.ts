// Background export benchmark (issue 21): a million-row event export through the download centre.
//   npx tsx bench/export.ts [--rows 1000000] [--format csv|xlsx]
// On a scratch PostgreSQL database (BENCH_POSTGRES_URL, default the test server's), the script inserts
// --rows cleared events for one inverter, then runs the event list's background export (the same service
// the console calls: keyset batches of 5,000, rows written one by one to a file under a temp DATA_DIR) and
// samples this process's RSS every 100 ms from start to finish. "Flat": the peak during the export stays
// within a few tens of MB of the RSS before it, whatever the row count (try --rows 100000 and 1000000).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { openDatabase, queryRows } from '../apps/server/src/db/client.js';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { createEventsRepository } from '../apps/server/src/features/events/events.repository.js';
import { createEventsService } from '../apps/server/src/features/events/events.service.js';
import { createFilesRepository } from '../apps/server/src/features/files/files.repository.js';
import { createDownloadCentre } from '../apps/server/src/features/files/files.service.js';

const { values: args } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, format: { type: 'string', default: 'csv' } },
});
const ROWS = Number(args.rows);
const FORMAT = args.format === 'xlsx' ? 'xlsx' : 'csv';
const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const work = mkdtempSync(join(tmpdir(), 'sunward-exportbench-'));
const scratch = await createScratchDatabase(pgUrl, 'sunward_exportbench');
const database = await openDatabase({ dataDir: join(work, 'unused'), databaseUrl: scratch.url });
try {
  const { db } = database;
  const [role] = await queryRows<{ id: number }>(
    db,
    sql`insert into roles (key, name, built_in) values ('platform_admin', 'Platform administrator', true) returning id`,
  );
  const [user] = await queryRows<{ id: number }>(
    db,
    sql`insert into users (account, password_hash, nickname, role_id) values ('bench@export.local', 'x', 'Bench', ${role?.id}) returning id`,
  );
  const [gateway] = await queryRows<{ id: number }>(db, sql`insert into gateways (sn, key_hash) values ('GWEXPORT01', 'x') returning id`);
  const [device] = await queryRows<{ id: number }>(
    db,
    sql`insert into devices (sn, family, protocol_id, gateway_id) values ('EXIN000001', 'inverter', 'sunspec-inverter-1p', ${gateway?.id}) returning id`,
  );
  const seeded = Date.now();
  await db.execute(sql`insert into device_events (device_id, code, level, opened_at, cleared_at)
    select ${device?.id}, 1001 + (g % 3), 'fault', now() - interval '20 days' + g * interval '1 second',
      now() - interval '20 days' + g * interval '1 second' + interval '30 seconds'
    from generate_series(1, ${ROWS}) g`);
  await db.execute(sql`analyze device_events`);
  console.log(`seeded ${ROWS.toLocaleString('en')} events in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

  const downloads = createDownloadCentre({
    repository: createFilesRepository(db),
    dataDir: work,
    retentionDays: 7,
    notify: async () => undefined,
    log: pino({ level: 'warn' }),
  });
  const events = createEventsService({ repository: createEventsRepository(db), downloads });
  const auth = {
    userId: user?.id ?? 0,
    sessionId: 'bench',
    account: 'bench@export.local',
    roleId: role?.id ?? 0,
    roleKey: 'platform_admin',
    companyId: null,
    readOnly: false,
    permissions: new Set<never>(),
    ip: '127.0.0.1',
  };

  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const samples: number[] = [];
  const sampler = setInterval(() => {
    const rss = process.memoryUsage().rss;
    samples.push(rss);
    peak = Math.max(peak, rss);
  }, 100);
  const started = Date.now();
  const record = await events.exportInBackground(auth, { format: FORMAT, from: '2000-01-01' }, 'en');
  let done: Awaited<ReturnType<typeof downloads.list>>['infos'][number] | undefined;
  for (;;) {
    done = (await downloads.list(auth.userId, { page: 1, size: 1 })).infos.find((r) => r.id === record.id);
    if (done && (done.status === 'done' || done.status === 'failed')) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  await downloads.close();
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? before;
  console.log(
    [
      `export ${FORMAT}: ${done?.status}, ${done?.rows?.toLocaleString('en')} rows, ${mb(done?.sizeBytes ?? 0)} file in ${seconds.toFixed(1)} s`,
      `(${Math.round((done?.rows ?? 0) / seconds).toLocaleString('en')} rows/s)`,
    ].join(' '),
  );
  console.log(`RSS before ${mb(before)}, median during ${mb(median)}, peak ${mb(peak)} (peak − before ${mb(peak - before)})`);
} finally {
  await database.close();
  await scratch.drop();
  rmSync(work, { recursive: true, force: true });
}
