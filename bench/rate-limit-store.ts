// What the shared rate-limit counters cost each request (issue 26 part 4): the store's upsert on PostgreSQL,
// one caller at a time and 20 at once over 200 keys, on a migrated scratch database with the server's pool.
//   npx tsx bench/rate-limit-store.ts [--hits 5000] [--postgres postgres://postgres@127.0.0.1:5432/test]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../apps/server/src/db/client.js';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { createRateLimitRepository } from '../apps/server/src/plugins/rate-limit.repository.js';

const { values: args } = parseArgs({
  options: {
    hits: { type: 'string', default: '5000' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const hits = Number(args.hits);
const scratch = await createScratchDatabase(args.postgres ?? '', 'sunward_ratelimit');
const handle = await openDatabase({ dataDir: mkdtempSync(join(tmpdir(), 'sunward-ratelimit-')), databaseUrl: scratch.url });
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? Number.NaN;
try {
  const counters = createRateLimitRepository(handle.db);
  for (const concurrency of [1, 20]) {
    const times: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < hits) {
          const i = next++;
          const t = performance.now();
          await counters.hit(`ip:198.51.100.${i % 200}`, 60_000);
          times.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `concurrency ${concurrency}: ${hits} hits in ${seconds.toFixed(2)} s (${Math.round(hits / seconds)}/s), p50 ${pct(times, 50).toFixed(2)} ms, p99 ${pct(times, 99).toFixed(2)} ms`,
    );
  }
} finally {
  await handle.close();
  await scratch.drop();
}
