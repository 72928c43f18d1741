import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { signInFailures as f } from '../../db/schema.js';
import type { FailureRecord, ThrottlePolicy } from './secret-throttle.js';

const columns = { key: f.key, failures: f.failures, firstFailedAt: f.firstFailedAt, lockedUntil: f.lockedUntil };

/**
 * The failure counters of the secret throttle. Every change is one statement, so parallel attempts in
 * one or several server processes never lose a count.
 */
export function createSecretThrottleRepository(db: Database) {
  return {
    async read(keys: string[]): Promise<Map<string, FailureRecord>> {
      const rows = await db.select(columns).from(f).where(inArray(f.key, keys));
      return new Map(rows.map(({ key, ...record }) => [key, record]));
    },

    /**
     * One more attempt on `key`: a counter older than the window, or whose lock has passed, starts again
     * at 1; reaching `lockAfter` sets the lock. Undefined (and nothing counted) while the key is locked.
     */
    async count(key: string, at: Date, policy: ThrottlePolicy, windowMs: number): Promise<FailureRecord | undefined> {
      const now = sql`${at.toISOString()}::timestamptz`;
      const lockEnd = sql`${now} + ${policy.lockMinutes}::float8 * interval '1 minute'`;
      const fresh = sql`(${f.firstFailedAt} < ${now} - ${windowMs}::float8 * interval '1 millisecond' or ${f.lockedUntil} <= ${now})`;
      const next = sql`(case when ${fresh} then 1 else ${f.failures} + 1 end)`;
      const [row] = await db
        .insert(f)
        .values({
          key,
          failures: 1,
          firstFailedAt: at,
          lockedUntil: policy.lockAfter <= 1 ? new Date(at.getTime() + policy.lockMinutes * 60_000) : null,
        })
        .onConflictDoUpdate({
          target: f.key,
          set: {
            failures: next,
            firstFailedAt: sql`case when ${fresh} then ${now} else ${f.firstFailedAt} end`,
            lockedUntil: sql`case when ${next} >= ${policy.lockAfter}::int then ${lockEnd} else null end`,
          },
          setWhere: or(isNull(f.lockedUntil), sql`${f.lockedUntil} <= ${now}`),
        })
        .returning(columns);
      if (!row) return undefined;
      const { key: _, ...record } = row;
      return record;
    },

    /** Takes back one counted attempt (the secret was right), lifting a lock it set. */
    async giveBack(key: string, policy: ThrottlePolicy): Promise<void> {
      await db
        .update(f)
        .set({
          failures: sql`greatest(${f.failures} - 1, 0)`,
          lockedUntil: sql`case when ${f.failures} - 1 >= ${policy.lockAfter}::int then ${f.lockedUntil} else null end`,
        })
        .where(eq(f.key, key));
    },

    async clear(key: string): Promise<void> {
      await db.delete(f).where(eq(f.key, key));
    },

    /** Deletes counters whose window and lock are both over; answers how many. */
    async purge(at: Date, windowMs: number): Promise<number> {
      const rows = await db
        .delete(f)
        .where(and(lt(f.firstFailedAt, new Date(at.getTime() - windowMs)), or(isNull(f.lockedUntil), lt(f.lockedUntil, at))))
        .returning({ key: f.key });
      return rows.length;
    },
  };
}

export type SecretThrottleRepository = ReturnType<typeof createSecretThrottleRepository>;
