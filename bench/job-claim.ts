// What the job registry costs (issue 26 part 1): a poll that finds its job not due, a due time claimed, run
// (nothing) and recorded, and 4 processes' registries sharing a 100 ms job for 5 s (runs against due times),
// on PGlite and PostgreSQL.
//   npx tsx bench/job-claim.ts [--passes 500] [--postgres postgres://postgres@127.0.0.1:5432/test]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.js';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { createJobsRepository } from '../apps/server/src/jobs/jobs.repository.js';
import { createJobRegistry } from '../apps/server/src/jobs/registry.js';

const { values: args } = parseArgs({
  options: {
    passes: { type: 'string', default: '500' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const passes = Number(args.passes);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? Number.NaN;
const quiet = { error: () => undefined, warn: () => undefined };

for (const kind of ['pglite', 'postgres'] as const) {
  const scratch = kind === 'postgres' ? await createScratchDatabase(args.postgres ?? '', 'sunward_jobs') : undefined;
  const handle = await openDatabase({ dataDir: mkdtempSync(join(tmpdir(), 'sunward-jobs-')), databaseUrl: scratch?.url });
  try {
    const repository = createJobsRepository(handle.db);
    const registry = createJobRegistry({ repository, log: quiet, settings: { owner: 'bench' } });
    await registry.register({ name: 'bench_due', everyMs: 3_600_000, scope: 'cluster', run: async () => undefined });
    await registry.runNow('bench_due');
    const idle: number[] = [];
    const due: number[] = [];
    for (let i = 0; i < passes; i++) {
      let t = performance.now();
      await registry.runNow('bench_due');
      idle.push(performance.now() - t);
      await handle.db.execute(sql`update background_jobs set next_due = now() where name = 'bench_due'`);
      t = performance.now();
      await registry.runNow('bench_due');
      due.push(performance.now() - t);
    }
    console.log(
      `${kind}: not-due poll p50 ${pct(idle, 50).toFixed(2)} ms p99 ${pct(idle, 99).toFixed(2)} ms; due pass (claim, run, finish, record) p50 ${pct(due, 50).toFixed(2)} ms p99 ${pct(due, 99).toFixed(2)} ms`,
    );
    // 4 processes' registries, one 100 ms cluster job, 5 s: how many runs, ever two at once?
    let runs = 0;
    let running = 0;
    let most = 0;
    const four = Array.from({ length: 4 }, (_, i) => createJobRegistry({ repository, log: quiet, settings: { owner: `p${i}` } }));
    for (const r of four)
      await r.register({
        name: 'bench_shared',
        everyMs: 100,
        scope: 'cluster',
        run: async () => {
          runs++;
          most = Math.max(most, ++running);
          running--;
        },
      });
    await Promise.all(four.map((r) => r.start()));
    await delay(5000);
    await Promise.all(four.map((r) => r.stop()));
    console.log(`${kind}: 4 registries, 100 ms job for 5 s: ${runs} runs (50 due times), at most ${most} at once`);
  } finally {
    await handle.close();
    await scratch?.drop();
  }
}
