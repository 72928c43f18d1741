import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { httpRateLimits } from '../db/schema.js';

/** How many expired counters one purge deletes at most, so it never holds many row locks at once. */
const PURGE_BATCH = 5000;

/** All SQL of the API rate limiter's shared counters (http_rate_limits); times are the database's clock. */
export function createRateLimitRepository(db: Database) {
  return {
    /**
     * Counts one request against `key` and returns the count including it and the milliseconds left in its window.
     * A window starts at the key's first request and lasts `windowMs`; the first request after it starts a new
     * one (as @fastify/rate-limit's memory store). One statement: concurrent requests on several servers each count.
     */
    async hit(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
      const expired = sql`${httpRateLimits.resetsAt} <= now()`;
      const [row] = await db
        .insert(httpRateLimits)
        .values({ key, count: 1, resetsAt: sql`now() + ${windowMs}::int * interval '1 millisecond'` })
        .onConflictDoUpdate({
          target: httpRateLimits.key,
          set: {
            count: sql`case when ${expired} then 1 else ${httpRateLimits.count} + 1 end`,
            resetsAt: sql`case when ${expired} then excluded.resets_at else ${httpRateLimits.resetsAt} end`,
          },
        })
        .returning({
          current: httpRateLimits.count,
          ttl: sql<number>`greatest(0, ceil(extract(epoch from (${httpRateLimits.resetsAt} - now())) * 1000))::int`,
        });
      return { current: row?.current ?? 1, ttl: row?.ttl ?? windowMs };
    },

    /** The key's count and milliseconds left, without counting; nothing (0, 0) outside a window. */
    async peek(key: string): Promise<{ current: number; ttl: number }> {
      const [row] = await db
        .select({
          current: httpRateLimits.count,
          ttl: sql<number>`ceil(extract(epoch from (${httpRateLimits.resetsAt} - now())) * 1000)::int`,
        })
        .from(httpRateLimits)
        .where(sql`${httpRateLimits.key} = ${key} and ${httpRateLimits.resetsAt} > now()`);
      return row ?? { current: 0, ttl: 0 };
    },

    /** Deletes counters whose window ended (a batch at most); returns how many. */
    async purgeExpired(): Promise<number> {
      const stale = db
        .select({ key: httpRateLimits.key })
        .from(httpRateLimits)
        .where(lt(httpRateLimits.resetsAt, sql`now()`))
        .limit(PURGE_BATCH);
      const deleted = await db
        .delete(httpRateLimits)
        .where(sql`${httpRateLimits.key} in (${stale})`)
        .returning({ key: httpRateLimits.key });
      return deleted.length;
    },
  };
}

export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;
