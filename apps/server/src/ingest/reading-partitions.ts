import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../db/client.js';

/**
 * Raw readings are partitioned by month: `readings_YYYY_MM` holds the readings from that month's first
 * instant (UTC) to the next month's. Rows outside every month partition sit in `readings_default`.
 */
const PARTITION_NAME = /^readings_(\d{4})_(\d{2})$/;

/** The partition holding the month that starts at `monthStart` (UTC). */
export function readingPartitionName(monthStart: Date): string {
  return `readings_${monthStart.getUTCFullYear()}_${String(monthStart.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The month partitions attached to readings, oldest first, with the first instant of their month. */
export async function listReadingPartitions(db: Database): Promise<{ name: string; month: Date }[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
        where p.relname = 'readings' and c.relname ~ '^readings_[0-9]{4}_[0-9]{2}$' order by c.relname`,
  );
  return rows.flatMap(({ name }) => {
    const [, year, month] = PARTITION_NAME.exec(name) ?? [];
    return year && month ? [{ name, month: new Date(Date.UTC(Number(year), Number(month) - 1, 1)) }] : [];
  });
}
