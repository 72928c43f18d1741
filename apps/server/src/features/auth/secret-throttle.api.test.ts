import { Code } from '@sunward/contracts/codes';
import { like, sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, signInFailures } from '../../db/schema.js';
import { newGateway, plantInput } from '../../test/api.js';
import { call, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { type SmtpInbox, startSmtpInbox } from '../../test/smtp-inbox.js';
import { createSecretThrottle, type ThrottlePolicy } from './secret-throttle.js';
import { createSecretThrottleRepository } from './secret-throttle.repository.js';

// Three wrong answers lock (the third already answers the lock), no delays: nothing here waits on a clock.
let server: TestServer;
let inbox: SmtpInbox;
let adminToken: string;
let counter = 0;
const unique = () => `${++counter}${Date.now().toString(36)}`;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({
    SMTP_URL: inbox.url,
    SIGN_IN_SLOW_AFTER: '2',
    SIGN_IN_LOCK_AFTER: '3',
    SIGN_IN_MAX_DELAY_MS: '0',
    COMMAND_TIMEOUT_S: '1',
  });
  adminToken = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
});

afterAll(async () => {
  await server?.close();
  await inbox?.close();
});

/** Time passes for the counters matching `pattern`: their lock and their hour are over (the stored clock, not a sleep). */
async function timePasses(pattern: string): Promise<void> {
  await server.database.db
    .update(signInFailures)
    .set({
      lockedUntil: sql`case when ${signInFailures.lockedUntil} is null then null else now() - interval '1 second' end`,
      firstFailedAt: sql`now() - interval '2 hours'`,
    })
    .where(like(signInFailures.key, pattern));
}

const post = async <T = unknown>(url: string, json: unknown, token?: string, ip?: string) =>
  (await call<T>(server.app, 'POST', url, { json, token, ip })).body;

async function userWithToken(ip?: string) {
  const user = await server.createUser('owner');
  const { access_token } = await signIn(server.app, user.account, user.password, ip);
  return { ...user, token: access_token };
}

describe('the throttle itself (database counters, injected clock)', () => {
  const policy: ThrottlePolicy = { slowAfter: 2, lockAfter: 4, lockMinutes: 15, maxDelayMs: 5000 };
  function throttleAt(clock: { now: Date }, delays: number[] = []) {
    return createSecretThrottle({
      repository: createSecretThrottleRepository(server.database.db),
      policy,
      now: () => clock.now,
      sleep: async (ms) => {
        delays.push(ms);
      },
    });
  }

  it('slows down, locks at the limit, refuses the right secret without checking it, and unlocks when the lock expires', async () => {
    const clock = { now: new Date() };
    const delays: number[] = [];
    const throttle = throttleAt(clock, delays);
    const attempt = { kind: 'password' as const, subject: `clock-${unique()}@test.local`, ip: '10.1.0.1' };
    const wrong = async () => false;
    expect((await throttle.check(attempt, wrong)).outcome).toBe('wrong');
    expect((await throttle.check(attempt, wrong)).outcome).toBe('wrong');
    expect((await throttle.check(attempt, wrong)).outcome).toBe('wrong');
    expect(delays).toEqual([250]);
    const locked = await throttle.check(attempt, wrong);
    expect(locked).toMatchObject({ outcome: 'locked', minutes: 15 });
    let looked = false;
    const right = async () => {
      looked = true;
      return true;
    };
    clock.now = new Date(clock.now.getTime() + 14 * 60_000);
    expect(await throttle.check(attempt, right)).toMatchObject({ outcome: 'locked', minutes: 1 });
    expect(looked).toBe(false);
    clock.now = new Date(clock.now.getTime() + 60_000 + 1);
    expect((await throttle.check(attempt, right)).outcome).toBe('right');
    expect(looked).toBe(true);
  });

  it('lets a parallel burst test no more guesses than the limit', async () => {
    const throttle = throttleAt({ now: new Date() });
    const attempt = { kind: 'gateway-key' as const, subject: `BURST${unique()}`, ip: '10.1.0.2' };
    let tested = 0;
    const verdicts = await Promise.all(
      Array.from({ length: 30 }, () =>
        throttle.check(attempt, async () => {
          tested++;
          return false;
        }),
      ),
    );
    expect(tested).toBeLessThanOrEqual(policy.lockAfter);
    expect(verdicts.filter((v) => v.outcome === 'locked').length).toBeGreaterThanOrEqual(30 - policy.lockAfter);
  });

  it('never locks an address for right secrets arriving at once (a site of gateways behind one NAT reconnecting)', async () => {
    const throttle = throttleAt({ now: new Date() });
    const ip = '10.1.0.250';
    const verdicts = await Promise.all(
      Array.from({ length: 120 }, (_, i) => throttle.check({ kind: 'gateway-key', subject: `NAT${i}${unique()}`, ip }, async () => true)),
    );
    expect(verdicts.every((v) => v.outcome === 'right')).toBe(true);
    expect((await throttle.check({ kind: 'gateway-key', subject: `NATLATE${unique()}`, ip }, async () => true)).outcome).toBe('right');
  });

  it('gives the attempt back when the secret is right, clears the subject and keeps the address count', async () => {
    const clock = { now: new Date() };
    const throttle = throttleAt(clock);
    const attempt = { kind: 'code' as const, subject: `give-${unique()}@test.local`, ip: `10.1.0.${3 + (counter % 200)}` };
    await throttle.check(attempt, async () => false);
    await throttle.check(attempt, async () => true);
    const rows = await server.database.db
      .select({ key: signInFailures.key, failures: signInFailures.failures })
      .from(signInFailures)
      .where(sql`${signInFailures.key} in (${`code:${attempt.subject}`}, ${`ip:${attempt.ip}`})`);
    expect(rows).toEqual([{ key: `ip:${attempt.ip}`, failures: 1 }]);
    clock.now = new Date(clock.now.getTime() + 2 * 3600_000);
    expect(await throttle.purge()).toBeGreaterThanOrEqual(1);
  });
});

describe('password asked again', () => {
  it('locks a shutdown confirmation after wrong passwords, refuses the right one until the lock expires (708 → 135)', async () => {
    const gateway = await newGateway(server);
    const sn = `INVTH${unique().toUpperCase()}`.slice(0, 16);
    await server.database.db
      .insert(devices)
      .values({ sn, family: 'inverter', protocolId: 'sunspec-inverter-3p', gatewayId: gateway.id, status: 1 });
    // The platform administrator may operate any device, bound to a plant or not.
    const shutdown = (password: string) => post(`/api/v1/inverter/${sn}/shutdown`, { idempotencyKey: unique(), password }, adminToken);
    expect((await shutdown('wrong-1')).code).toBe(Code.CONFIRM_PASSWORD_WRONG);
    expect((await shutdown('wrong-2')).code).toBe(Code.CONFIRM_PASSWORD_WRONG);
    const third = await shutdown('wrong-3');
    expect(third.code).toBe(Code.TOO_MANY_ATTEMPTS);
    expect(third.message).toContain('15 minutes');
    expect(third.data).toMatchObject({ retryAt: expect.any(String) });
    expect((await shutdown(ADMIN.password)).code).toBe(Code.TOO_MANY_ATTEMPTS);
    // One counter per password: sign-in of the same account is locked too.
    const signInLocked = await call(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'password', username: ADMIN.account, password: ADMIN.password },
    });
    expect(signInLocked.body.code).toBe(Code.SIGN_IN_LOCKED);
    await timePasses(`account:${ADMIN.account}`);
    const after = await shutdown(ADMIN.password);
    expect([Code.CONFIRM_PASSWORD_WRONG, Code.TOO_MANY_ATTEMPTS]).not.toContain(after.code);
  });

  it('locks a plant transfer after wrong passwords (705 → 135) until the lock expires', async () => {
    const owner = await userWithToken();
    const next = await server.createUser('owner');
    const gateway = await newGateway(server);
    const created = await post<{ id: number }>(
      '/api/v1/plant',
      plantInput({ name: 'Throttle Test Plant', gateways: [gateway] }),
      owner.token,
    );
    expect(created.code).toBe(0);
    const transfer = (password: string) =>
      post(`/api/v1/plant/${created.data.id}/transfer`, { account: next.account, password }, owner.token);
    expect((await transfer('not-mine-1')).code).toBe(Code.OWNER_PASSWORD_WRONG);
    expect((await transfer('not-mine-2')).code).toBe(Code.OWNER_PASSWORD_WRONG);
    expect((await transfer('not-mine-3')).code).toBe(Code.TOO_MANY_ATTEMPTS);
    expect((await transfer(owner.password)).code).toBe(Code.TOO_MANY_ATTEMPTS);
    await timePasses(`account:${owner.account}`);
    expect((await transfer(owner.password)).code).toBe(0);
  });

  it('counts per address too: wrong passwords of many accounts from one address lock that address', async () => {
    const ip = '10.2.0.9';
    // An address gets 3 × 3 = 9 failures; each account only 2, so no account is locked.
    const users = await Promise.all(Array.from({ length: 5 }, () => userWithToken(ip)));
    const answers: number[] = [];
    for (const user of users) {
      const plant = await post<{ id: number }>(
        '/api/v1/plant',
        plantInput({ name: 'Throttle Test Plant', gateways: [await newGateway(server)] }),
        user.token,
      );
      for (const n of [1, 2])
        answers.push(
          (await post(`/api/v1/plant/${plant.data.id}/transfer`, { account: ADMIN.account, password: `x${n}` }, user.token, ip)).code,
        );
    }
    expect(answers.slice(0, 8).every((c) => c === Code.OWNER_PASSWORD_WRONG)).toBe(true);
    expect(answers[8]).toBe(Code.TOO_MANY_ATTEMPTS);
    expect(answers[9]).toBe(Code.TOO_MANY_ATTEMPTS);
    await timePasses(`ip:${ip}`);
  });
});

describe('gateway keys', () => {
  it('answers an unknown SN like a wrong key, locks the SN after wrong keys, the right key included, until expiry', async () => {
    const gateway = await newGateway(server);
    const check = (sn: string, key: string) => post('/api/v1/gateways/check', { sn, key }, adminToken, '10.3.0.1');
    const unknown = await check(`NOPE${unique().toUpperCase()}`.slice(0, 16), 'whatever1');
    const wrong = await check(gateway.sn, 'wrongkey1');
    expect(unknown.code).toBe(Code.GATEWAY_REGISTRATION_WRONG);
    expect(wrong.code).toBe(Code.GATEWAY_REGISTRATION_WRONG);
    expect(unknown.message).toBe(wrong.message);
    expect((await check(gateway.sn, 'wrongkey2')).code).toBe(Code.GATEWAY_REGISTRATION_WRONG);
    expect((await check(gateway.sn, 'wrongkey3')).code).toBe(Code.TOO_MANY_ATTEMPTS);
    expect((await check(gateway.sn, gateway.key)).code).toBe(Code.TOO_MANY_ATTEMPTS);
    // SNs compare case-insensitively: another spelling is the same counter.
    expect((await check(gateway.sn.toLowerCase(), gateway.key)).code).toBe(Code.TOO_MANY_ATTEMPTS);
    await timePasses(`gateway:${gateway.sn.toLowerCase()}`);
    expect((await check(gateway.sn, gateway.key)).code).toBe(0);
  });

  it('locks an address that tries many SNs (30 wrong keys from one site address)', async () => {
    const ip = '10.3.0.2';
    const codes: number[] = [];
    for (let i = 0; i < 31; i++)
      codes.push(
        (await post('/api/v1/gateways/check', { sn: `SPRAY${unique().toUpperCase()}`.slice(0, 16), key: 'guess1' }, adminToken, ip)).code,
      );
    expect(codes.slice(0, 29).every((c) => c === Code.GATEWAY_REGISTRATION_WRONG)).toBe(true);
    expect(codes[29]).toBe(Code.TOO_MANY_ATTEMPTS);
    const gateway = await newGateway(server);
    expect((await post('/api/v1/gateways/check', { sn: gateway.sn, key: gateway.key }, adminToken, ip)).code).toBe(Code.TOO_MANY_ATTEMPTS);
    await timePasses(`gateway-ip:${ip}`);
    expect((await post('/api/v1/gateways/check', { sn: gateway.sn, key: gateway.key }, adminToken, ip)).code).toBe(0);
  });

  /** The CONNACK answer: 0 connected, 4 bad user name or password, 5 not authorised. */
  function connack(sn: string, key: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const client = mqtt.connect(`mqtt://127.0.0.1:${server.telemetry.mqttPort}`, {
        clientId: sn,
        username: sn,
        password: key,
        reconnectPeriod: 0,
        connectTimeout: 10_000,
      });
      client.once('connect', () => {
        client.end(true);
        resolve(0);
      });
      client.once('error', (error: Error & { code?: number }) => {
        client.end(true);
        if (typeof error.code === 'number') resolve(error.code);
        else reject(error);
      });
    });
  }

  it('refuses MQTT CONNECT as not authorised once an SN had too many wrong keys, the right key too, until expiry', async () => {
    const gateway = await newGateway(server);
    expect(await connack(gateway.sn, 'wrong-1')).toBe(4);
    expect(await connack(gateway.sn, 'wrong-2')).toBe(4);
    expect(await connack(gateway.sn, 'wrong-3')).toBe(5);
    expect(await connack(gateway.sn, gateway.key)).toBe(5);
    // The lock is the SN's whichever way the key is tried.
    expect((await post('/api/v1/gateways/check', { sn: gateway.sn, key: gateway.key }, adminToken, '10.3.0.3')).code).toBe(
      Code.TOO_MANY_ATTEMPTS,
    );
    await timePasses(`gateway:${gateway.sn.toLowerCase()}`);
    expect(await connack(gateway.sn, gateway.key)).toBe(0);
  });
});

describe('verification codes', () => {
  const get = async (url: string, query: Record<string, string>, ip: string) => (await call(server.app, 'GET', url, { query, ip })).body;

  it('locks an address after wrong codes: the right code is refused until the lock expires', async () => {
    const account = `code-${unique()}@example.com`;
    const ip = '10.4.0.1';
    expect((await get('/anonymous/getCode', { account }, ip)).code).toBe(0);
    const code = await inbox.nextCode(account);
    const wrong = code === '000000' ? '111111' : '000000';
    const checkCode = (value: string) => get('/anonymous/checkCode', { account, code: value, type: 'register' }, ip);
    expect((await checkCode(wrong)).code).toBe(Code.VERIFICATION_CODE_WRONG);
    expect((await checkCode(wrong)).code).toBe(Code.VERIFICATION_CODE_WRONG);
    expect((await checkCode(wrong)).code).toBe(Code.TOO_MANY_ATTEMPTS);
    expect((await checkCode(code)).code).toBe(Code.TOO_MANY_ATTEMPTS);
    const signup = await post('/anonymous/signup', { account, code, password: 'Sunrise7Harbor', agree: true }, undefined, ip);
    expect(signup.code).toBe(Code.TOO_MANY_ATTEMPTS);
    await timePasses(`code:${account}`);
    expect((await checkCode(code)).code).toBe(0);
  });

  it('counts per address too: wrong codes for many accounts from one caller lock the caller', async () => {
    const ip = '10.4.0.2';
    const codes: number[] = [];
    for (let i = 0; i < 10; i++)
      codes.push((await get('/anonymous/checkCode', { account: `spray-${unique()}@example.com`, code: '123456', type: 'reset' }, ip)).code);
    expect(codes.slice(0, 8).every((c) => c === Code.VERIFICATION_CODE_EXPIRED)).toBe(true);
    expect(codes[8]).toBe(Code.TOO_MANY_ATTEMPTS);
    expect(codes[9]).toBe(Code.TOO_MANY_ATTEMPTS);
    await timePasses(`ip:${ip}`);
    expect((await get('/anonymous/checkCode', { account: `after-${unique()}@example.com`, code: '123456', type: 'reset' }, ip)).code).toBe(
      Code.VERIFICATION_CODE_EXPIRED,
    );
  });
});
