import { Code } from '@sunward/contracts/codes';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, type Tokens } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { setAccountDisabled } from '../users/users.service.js';
import { hashToken } from './tokens.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SIGN_IN_SLOW_AFTER: '2', SIGN_IN_LOCK_AFTER: '4', SIGN_IN_MAX_DELAY_MS: '300' });
});
afterAll(async () => server?.close());

/** Moves a refresh token's retirement into the past, as if `seconds` had gone by since its exchange. */
const retiredAgo = (token: string, seconds: number) =>
  server.database.db.execute(
    sql`update session_tokens set retired_at = retired_at - make_interval(secs => ${seconds}) where token_hash = ${hashToken(token)}`,
  );

describe('POST /oauth/token (password grant)', () => {
  it('signs in with form fields and returns an OAuth token pair', async () => {
    const result = await call<Tokens>(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'password', username: ADMIN.account, password: ADMIN.password },
    });
    expect(result.status).toBe(200);
    expect(result.body.code).toBe(0);
    expect(result.body.data.token_type).toBe('bearer');
    expect(result.body.data.expires_in).toBeGreaterThan(0);
    expect(result.body.data.access_token).not.toBe(result.body.data.refresh_token);
  });

  it('accepts JSON and treats the account case-insensitively', async () => {
    const result = await call<Tokens>(server.app, 'POST', '/oauth/token', {
      json: { grant_type: 'password', username: ADMIN.account.toUpperCase(), password: ADMIN.password },
    });
    expect(result.body.code).toBe(0);
  });

  it('refuses a wrong password with code 102 and a localised message', async () => {
    const user = await server.createUser('owner');
    const en = await call(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'password', username: user.account, password: 'wrong-one' },
      ip: '10.0.0.2',
    });
    expect(en.body).toMatchObject({ code: Code.WRONG_CREDENTIALS, data: null, message: 'Wrong account or password.' });
    const de = await call(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'password', username: user.account, password: 'wrong-one' },
      query: { lan: 'de' },
      ip: '10.0.0.2',
    });
    expect(de.body.code).toBe(Code.WRONG_CREDENTIALS);
    expect(de.body.message).not.toBe(en.body.message);
  });

  it('refuses an unknown account with the same code as a wrong password', async () => {
    const result = await call(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'password', username: 'nobody@test.local', password: 'whatever1' },
      ip: '10.0.0.3',
    });
    expect(result.body.code).toBe(Code.WRONG_CREDENTIALS);
  });

  it('answers code 4 naming the missing field', async () => {
    const result = await call<{ errors: { field: string }[] }>(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'password', username: 'x' },
    });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe(Code.VALIDATION);
    expect(result.body.data.errors.map((e) => e.field)).toContain('password');
    expect(result.body.message).toContain('password');
  });

  it('answers code 4 for an unknown grant type and for malformed JSON', async () => {
    const grant = await call(server.app, 'POST', '/oauth/token', { form: { grant_type: 'client_credentials' } });
    expect(grant.body.code).toBe(Code.VALIDATION);
    const broken = await server.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/json' },
      payload: '{"grant_type":',
    });
    expect(broken.json()).toMatchObject({ code: Code.VALIDATION });
  });

  it('refuses a disabled account with code 101, and disabling ends its sessions at once', async () => {
    const user = await server.createUser('owner');
    const tokens = await signIn(server.app, user.account, user.password);
    expect((await call(server.app, 'GET', '/api/v1/user', { token: tokens.access_token })).body.code).toBe(0);
    await setAccountDisabled({ users: server.repositories.users, auth: server.repositories.auth }, user.id, true);
    const after = await call(server.app, 'GET', '/api/v1/user', { token: tokens.access_token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(Code.TOKEN_INVALID);
    const refresh = await call(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
    });
    expect(refresh.body.code).not.toBe(0);
    const again = await call(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'password', username: user.account, password: user.password },
    });
    expect(again.body.code).toBe(Code.ACCOUNT_DISABLED);
  });
});

describe('lock-out after repeated failures', () => {
  it('slows, then refuses even the right password with code 110, per account', async () => {
    const user = await server.createUser('owner');
    const ip = '10.1.0.1';
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await call(server.app, 'POST', '/oauth/token', {
        form: { grant_type: 'password', username: user.account, password: `bad-${i}` },
        ip: `10.1.0.${i + 10}`,
      });
      codes.push(r.body.code);
    }
    expect(codes.slice(0, 3)).toEqual([102, 102, 102]);
    expect(codes[3]).toBe(Code.SIGN_IN_LOCKED);
    const right = await call(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'password', username: user.account, password: user.password },
      ip,
    });
    expect(right.status).toBe(429);
    expect(right.body.code).toBe(Code.SIGN_IN_LOCKED);
    expect(right.body.message).toMatch(/\d+/);
  });

  it('locks an address that tries many accounts', async () => {
    const ip = '10.2.0.1';
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await call(server.app, 'POST', '/oauth/token', {
        form: { grant_type: 'password', username: `spray-${i}@test.local`, password: 'guess-1' },
        ip,
      });
      codes.push(r.body.code);
    }
    expect(codes.slice(0, 11).every((c) => c === Code.WRONG_CREDENTIALS)).toBe(true);
    expect(codes.at(-1)).toBe(Code.SIGN_IN_LOCKED);
    // Another address is unaffected.
    const other = await call(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'password', username: ADMIN.account, password: ADMIN.password },
      ip: '10.2.0.2',
    });
    expect(other.body.code).toBe(0);
  });
});

describe('refresh rotation and reuse detection', () => {
  it('issues a new pair and retires the old refresh token', async () => {
    const first = await signIn(server.app, ADMIN.account, ADMIN.password);
    const rotated = await call<Tokens>(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'refresh_token', refresh_token: first.refresh_token },
    });
    expect(rotated.body.code).toBe(0);
    expect(rotated.body.data.refresh_token).not.toBe(first.refresh_token);
    expect((await call(server.app, 'GET', '/api/v1/user', { token: rotated.body.data.access_token })).body.code).toBe(0);
  });

  it('revokes the whole session when a refresh token retired longer ago than the grace is presented again', async () => {
    const first = await signIn(server.app, ADMIN.account, ADMIN.password);
    const second = (
      await call<Tokens>(server.app, 'POST', '/oauth/token', { form: { grant_type: 'refresh_token', refresh_token: first.refresh_token } })
    ).body.data;
    await retiredAgo(first.refresh_token, 11);
    const reuse = await call(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'refresh_token', refresh_token: first.refresh_token },
    });
    expect(reuse.body.code).toBe(Code.REFRESH_INVALID);
    // The legitimate holder of the newest pair is signed out too.
    expect((await call(server.app, 'GET', '/api/v1/user', { token: second.access_token })).status).toBe(401);
    const next = await call(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'refresh_token', refresh_token: second.refresh_token },
    });
    expect(next.body.code).toBe(Code.REFRESH_INVALID);
  });

  it('within the grace (10 s) a just-retired token exchanges once more for a sibling pair: a reload or a second tab mid-refresh stays signed in', async () => {
    const first = await signIn(server.app, ADMIN.account, ADMIN.password);
    const exchange = (token: string) =>
      call<Tokens>(server.app, 'POST', '/oauth/token', { form: { grant_type: 'refresh_token', refresh_token: token } });
    // Two tabs refresh with the same token at once: both get a pair, the session goes on.
    const [a, b] = await Promise.all([exchange(first.refresh_token), exchange(first.refresh_token)]);
    expect([a.body.code, b.body.code]).toEqual([0, 0]);
    expect(a.body.data.refresh_token).not.toBe(b.body.data.refresh_token);
    for (const pair of [a.body.data, b.body.data]) {
      expect((await call(server.app, 'GET', '/api/v1/user', { token: pair.access_token })).body.code).toBe(0);
      expect((await exchange(pair.refresh_token)).body.code).toBe(0);
    }
    // After the grace the same token is a copy: the session ends.
    await retiredAgo(first.refresh_token, 11);
    expect((await exchange(first.refresh_token)).body.code).toBe(Code.REFRESH_INVALID);
    expect((await call(server.app, 'GET', '/api/v1/user', { token: a.body.data.access_token })).status).toBe(401);
  });

  it('refuses an unknown refresh token with code 111', async () => {
    const result = await call(server.app, 'POST', '/oauth/token', { form: { grant_type: 'refresh_token', refresh_token: 'x'.repeat(43) } });
    expect(result.body.code).toBe(Code.REFRESH_INVALID);
  });
});

describe('sign-out', () => {
  it('revokes the session server-side: neither token works afterwards', async () => {
    const tokens = await signIn(server.app, ADMIN.account, ADMIN.password);
    const out = await call(server.app, 'POST', '/oauth/revoke', { token: tokens.access_token, json: { token: tokens.refresh_token } });
    expect(out.body.code).toBe(0);
    expect((await call(server.app, 'GET', '/api/v1/user', { token: tokens.access_token })).status).toBe(401);
    const refresh = await call(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
    });
    expect(refresh.body.code).toBe(Code.REFRESH_INVALID);
  });

  it('leaves the user’s other sessions alone', async () => {
    const a = await signIn(server.app, ADMIN.account, ADMIN.password);
    const b = await signIn(server.app, ADMIN.account, ADMIN.password);
    await call(server.app, 'POST', '/oauth/revoke', { token: a.access_token });
    expect((await call(server.app, 'GET', '/api/v1/user', { token: b.access_token })).body.code).toBe(0);
  });
});
