import { Code } from '@sunward/contracts/codes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type TestServer } from '../test/harness.js';
import { retryAfterSeconds } from './errors.js';

// Issue 17: one client cannot starve the rest. Other suites raise the limits (test/harness.ts); this one lowers them.
describe('API rate limiting', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      RATE_LIMIT_PER_ADDRESS: '5',
      RATE_LIMIT_PER_TOKEN: '8',
      RATE_LIMIT_WINDOW_SECONDS: '60',
      TRUST_PROXY: 'true',
      SIGN_IN_LOCK_AFTER: '2',
      SIGN_IN_MAX_DELAY_MS: '0',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The same call from one client address (through the trusted proxy's X-Forwarded-For). */
  const from = (address: string, headers: Record<string, string> = {}) =>
    server.app.inject({ url: '/anonymous/about', headers: { 'x-forwarded-for': address, ...headers } });

  it('past the per-address limit: 429, the envelope with a localised message, Retry-After; other addresses unaffected', async () => {
    for (let i = 0; i < 5; i++) expect((await from('198.51.100.1')).statusCode).toBe(200);
    const refused = await from('198.51.100.1', { 'accept-language': 'de' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: Code.RATE_LIMITED,
      data: null,
      message: 'Zu viele Anfragen. Bitte warten Sie einen Moment und versuchen Sie es erneut.',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await from('198.51.100.2')).statusCode).toBe(200);
  });

  it('requests with an access token count per token, beside the address', async () => {
    const signIn = await server.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'x-forwarded-for': '198.51.100.3' },
      payload: { grant_type: 'password', username: ADMIN.account, password: ADMIN.password },
    });
    const token = (signIn.json() as { data: { access_token: string } }).data.access_token;
    const auth = { authorization: `Bearer ${token}` };
    // The address's own budget (5) does not apply: the token's (8) does.
    for (let i = 0; i < 8; i++) expect((await from('198.51.100.3', auth)).statusCode).toBe(200);
    const refused = await from('198.51.100.4', auth);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: Code.RATE_LIMITED });
    // Without the token, the address still has its budget.
    expect((await from('198.51.100.3')).statusCode).toBe(200);
  });

  it('a locked sign-in (code 110, like 135) carries Retry-After', async () => {
    const wrong = () =>
      server.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'x-forwarded-for': '198.51.100.9' },
        payload: { grant_type: 'password', username: 'locked@test.local', password: 'Wrong-Password-1' },
      });
    await wrong();
    await wrong();
    const locked = await wrong();
    expect(locked.json()).toMatchObject({ code: Code.SIGN_IN_LOCKED });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(60);
  });

  it('throttled secrets carry Retry-After from data.retryAt', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds({ retryAt: '2026-01-01T00:05:00Z' }, now)).toBe(300);
    expect(retryAfterSeconds({ retryAt: '2025-12-31T00:00:00Z' }, now)).toBe(1);
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });
});
