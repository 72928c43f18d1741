import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { RateLimitRepository } from './rate-limit.repository.js';

/** Expired counters are deleted at most this often per process, by the request that finds the time has come. */
const PURGE_EVERY_MS = 60_000;

type StoreCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * @fastify/rate-limit's store on the database (issue 26 part 4): the counters of every server process are one,
 * so a load balancer may send any request anywhere. Same counting as the memory store it replaces (a window from
 * the key's first request; a route with its own limit counts apart, under its method and path), so answers,
 * headers and codes are unchanged. `continueExceeding` and `exponentialBackoff` are not used by the product and
 * not supported. Expired rows are purged by the requests themselves, without a timer of their own.
 */
export function databaseRateLimitStore(repository: RateLimitRepository, onPurgeError: (error: unknown) => void): FastifyRateLimitStoreCtor {
  let lastPurgeAt = Date.now();
  const purgeWhenDue = () => {
    const at = Date.now();
    if (at - lastPurgeAt < PURGE_EVERY_MS) return;
    lastPurgeAt = at;
    repository.purgeExpired().catch(onPurgeError);
  };

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;

    constructor(options: FastifyRateLimitOptions & { continueExceeding?: boolean; exponentialBackoff?: boolean }, prefix = '') {
      if (options.continueExceeding || options.exponentialBackoff)
        throw new Error('the database rate-limit store supports neither continueExceeding nor exponentialBackoff');
      this.prefix = prefix;
    }

    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      purgeWhenDue();
      repository.hit(this.prefix + key, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    read(key: string, callback: StoreCallback): void {
      repository.peek(this.prefix + key).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: FastifyRateLimitOptions & { routeInfo?: { method?: unknown; url?: unknown } }): FastifyRateLimitStore {
      const route = `${String(routeOptions.routeInfo?.method ?? '')} ${String(routeOptions.routeInfo?.url ?? '')}`;
      return new DatabaseRateLimitStore(routeOptions, `${route}|`);
    }
  }
  return DatabaseRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}
