import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Database, queryRows } from '../db/client.js';
import { rawRows } from '../db/rows.js';
import { listReadingPartitions } from './reading-partitions.js';

const HOUR_MS = 3_600_000;
// Buckets are aggregated once closed, with a margin for late (store-and-forward) reports.
const LATE_MARGIN_MS = 2 * HOUR_MS;

/**
 * Tiered retention: 5-minute and hourly averages of closed time are computed in the background; raw monthly
 * partitions older than the retention are dropped whole (cheap, no row deletes) once their hours
 * are aggregated. Daily energy rollups are never deleted, so no energy total is ever lost.
 */
/** Aggregate tiers below raw readings: each averages every point per bucket of closed time. */
const TIERS = {
  '5m': { table: 'readings_5m', column: 'bucket', ms: 5 * 60_000, interval: '5 minutes', maxBucketsPerRun: 12 * 24 * 2 },
  hourly: { table: 'readings_hourly', column: 'hour', ms: HOUR_MS, interval: '1 hour', maxBucketsPerRun: 48 },
} as const;
export type Tier = keyof typeof TIERS;

/** Connection log rows deleted per statement: each delete is short, so ingest's inserts never wait long. */
const CONNECTION_LOG_BATCH = 5000;
const CONNECTION_LOG_MAX_BATCHES_PER_RUN = 200;

export function createRetention(
  db: Database,
  log: FastifyBaseLogger,
  settings: { rawRetentionDays: number; connectionLogRetentionDays?: number },
) {
  /**
   * Where aggregation starts before it has a watermark: the first month partition holding a reading (or
   * earlier rows in the default partition). `min(ts)` over readings would read every row, since the key
   * leads with the device: on a fresh server with millions of rows that stalled ingest every 10 minutes.
   * Empty hours from the month's start cost little, as the time index skips them.
   */
  async function firstReadingHour(): Promise<Date | undefined> {
    const [stray] = await queryRows<{ ts: Date | string | null }>(db, sql`select min(ts) as ts from readings_default`);
    let first: Date | undefined;
    for (const { name, month } of await listReadingPartitions(db)) {
      // Names come from the catalog and match the partition pattern.
      const [row] = await queryRows<{ one: number }>(db, sql.raw(`select 1 as one from "${name}" limit 1`));
      if (!row) continue;
      first = month;
      break;
    }
    const strayHour = stray?.ts ? new Date(Math.floor(new Date(stray.ts).getTime() / HOUR_MS) * HOUR_MS) : undefined;
    if (!first) return strayHour;
    return strayHour && strayHour < first ? strayHour : first;
  }

  async function watermark(tier: Tier): Promise<Date | undefined> {
    const [row] = await queryRows<{ watermark: Date | string }>(db, sql`select watermark from job_state where name = ${tier}`);
    if (row) return new Date(row.watermark);
    return firstReadingHour();
  }

  /** Averages the closed buckets of a tier after its watermark (a bounded span per run). Returns buckets done. */
  async function aggregate(tier: Tier, now = new Date()): Promise<number> {
    const spec = TIERS[tier];
    const from = await watermark(tier);
    if (!from) return 0;
    const until = new Date(
      Math.min(Math.floor((now.getTime() - LATE_MARGIN_MS) / spec.ms) * spec.ms, from.getTime() + spec.maxBucketsPerRun * spec.ms),
    );
    if (until <= from) return 0;
    await db.transaction(async (tx) => {
      // Table and column names come from the constant TIERS above, never from input.
      await tx.execute(
        sql.raw(`
        insert into ${spec.table} (device_id, ${spec.column}, values, samples)
        select device_id, b, array_agg(avg_v order by idx), max(n)
        from (
          select r.device_id, date_bin('${spec.interval}', r.ts, timestamptz 'epoch') as b, u.idx,
                 avg(u.v) filter (where u.v <> 'NaN')::float8 as avg_v, count(distinct r.ts)::int as n
          from readings r, unnest(r.values) with ordinality as u(v, idx)
          where r.ts >= '${from.toISOString()}'::timestamptz and r.ts < '${until.toISOString()}'::timestamptz
          group by 1, 2, 3
        ) per_point
        group by device_id, b
        on conflict (device_id, ${spec.column}) do update set values = excluded.values, samples = excluded.samples`),
      );
      await tx.execute(sql`insert into job_state (name, watermark) values (${tier}, ${until.toISOString()}::timestamptz)
        on conflict (name) do update set watermark = excluded.watermark`);
    });
    return Math.round((until.getTime() - from.getTime()) / spec.ms);
  }

  return {
    aggregate,
    /** Hourly tier, kept as its own name for callers that only need hours. */
    aggregateHours: (now = new Date()) => aggregate('hourly', now),

    /** Drops raw monthly partitions wholly older than the retention whose hours are aggregated. */
    async dropExpiredPartitions(now = new Date()): Promise<string[]> {
      const cutoff = new Date(now.getTime() - settings.rawRetentionDays * 86_400_000);
      // A partition goes only when both tiers have averaged it.
      const [fine, coarse] = await Promise.all([watermark('5m'), watermark('hourly')]);
      const done = fine && coarse ? new Date(Math.min(fine.getTime(), coarse.getTime())) : undefined;
      const dropped: string[] = [];
      for (const { name, month } of await listReadingPartitions(db)) {
        const end = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
        if (end > cutoff || !done || end > done) continue;
        await db.execute(sql.raw(`drop table if exists "${name}"`));
        dropped.push(name);
        log.info({ partition: name }, 'raw readings partition past retention dropped (hourly averages and energy kept)');
      }
      return dropped;
    },

    /**
     * Deletes gateway connection log entries older than CONNECTION_LOG_RETENTION_DAYS in batches of a few
     * thousand rows by the time index (one short statement each, never a long table lock); a backlog larger
     * than a run's bound is finished by the next runs. Returns the rows deleted.
     */
    async purgeConnectionLog(now = new Date(), batchSize = CONNECTION_LOG_BATCH): Promise<number> {
      const days = settings.connectionLogRetentionDays ?? 90;
      const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
      let deleted = 0;
      for (let batch = 0; batch < CONNECTION_LOG_MAX_BATCHES_PER_RUN; batch++) {
        const rows = await rawRows(
          db,
          sql`delete from gateway_connection_log where id in (
            select id from gateway_connection_log where at < ${cutoff}::timestamptz order by at limit ${batchSize}
          ) returning id`,
        );
        deleted += rows.length;
        if (rows.length < batchSize) break;
      }
      if (deleted > 0) log.info({ deleted, days }, 'gateway connection log entries past retention deleted');
      return deleted;
    },
  };
}

export type Retention = ReturnType<typeof createRetention>;
