import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import { Code } from '@sunward/contracts/codes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../lib/envelope.js';
import type { RateLimitRepository } from './rate-limit.repository.js';
import { databaseRateLimitStore } from './rate-limit-store.js';

export interface RateLimitSettings {
  /** Requests per window one access token may make; 0: no limit per token. */
  perToken: number;
  /** Requests per window one address may make without a token; 0: no limit per address. */
  perAddress: number;
  windowMs: number;
  /**
   * With PostgreSQL: the counters in the database, shared by every server process (plugins/rate-limit-store.ts).
   * Absent (the embedded database, one process by construction): in this process's memory, as before.
   */
  shared?: RateLimitRepository;
}

/** The caller a request counts against: its access token when it sends one (hashed: keys never hold secrets), else its address. */
export function rateLimitKey(request: FastifyRequest): string {
  const [scheme, token] = (request.headers.authorization ?? '').split(' ');
  if (scheme?.toLowerCase() === 'bearer' && token) return `token:${createHash('sha256').update(token).digest('base64url').slice(0, 22)}`;
  // request.ip is the client's address, read from X-Forwarded-For only when TRUST_PROXY believes the proxy.
  return `ip:${request.ip}`;
}

/**
 * API rate limiting on every route (issue 17): one client cannot starve the rest. Requests with an access token
 * count per token (RATE_LIMIT_PER_TOKEN), the others per address (RATE_LIMIT_PER_ADDRESS), in a window of
 * RATE_LIMIT_WINDOW_SECONDS; past the limit the answer is 429 with code 429 and Retry-After.
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance, settings: RateLimitSettings) => {
  // With both limits off it still runs for the routes that set their own (the open API's per-key quotas).
  const off = settings.perToken === 0 && settings.perAddress === 0;
  const byToken = (key: string) => key.startsWith('token:');
  await app.register(rateLimit, {
    global: !off,
    timeWindow: settings.windowMs,
    keyGenerator: rateLimitKey,
    max: (_request, key) => (byToken(key) ? settings.perToken : settings.perAddress),
    // A limit set to 0 is off for its kind of caller.
    allowList: (_request, key) => (byToken(key) ? settings.perToken === 0 : settings.perAddress === 0),
    // In memory on the embedded database (a restart starts them afresh), in the database with PostgreSQL (docs/decisions.md).
    ...(settings.shared
      ? { store: databaseRateLimitStore(settings.shared, (error) => app.log.warn({ err: error }, 'rate-limit counters not purged')) }
      : { cache: 50_000 }),
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    // The product's envelope with the localised message (plugins/errors.ts sends it with HTTP 429).
    errorResponseBuilder: () => new ApiError(Code.RATE_LIMITED),
  });
});
