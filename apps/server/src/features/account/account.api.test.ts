import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CodeSent } from '@sunward/contracts/account';
import { Code } from '@sunward/contracts/codes';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users, verificationCodes } from '../../db/schema.js';
import { apiClient } from '../../test/api.js';
import { call, signIn } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { type SmtpInbox, startSmtpInbox } from '../../test/smtp-inbox.js';

let server: TestServer;
let inbox: SmtpInbox;
/** Our own DATA_DIR, to read the SMS outbox. */
const dataDir = mkdtempSync(join(tmpdir(), 'sunward-accounts-'));
let ipCounter = 10;
/** Each test asks from its own client address, so the per-address limits of one test do not touch another. */
const newIp = () => `10.0.7.${++ipCounter}`;
let accountCounter = 0;
const newEmail = () => `person${++accountCounter}-${Date.now()}@example.com`;

const { get, post } = apiClient(() => server.app);

const STRONG = 'Sunrise7Harbor';

async function registered(ip = newIp()) {
  const account = newEmail();
  expect((await get('/anonymous/getCode', { query: { account }, ip })).code).toBe(0);
  const code = await inbox.nextCode(account);
  expect((await post('/anonymous/signup', { account, code, password: STRONG, agree: true }, { ip })).code).toBe(0);
  return account;
}

beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({ SMTP_URL: inbox.url, DATA_DIR: dataDir });
});

afterAll(async () => {
  await server?.close();
  await inbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the call catalogue', () => {
  it('answers every Authentication and account row of calls.tsv (third-party and notify rows included)', async () => {
    const rows = readFileSync(new URL('../../../../../docs/spec/calls.tsv', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.split('\t'))
      .filter(([, , area]) => area === 'Authentication and account');
    expect(rows.length).toBeGreaterThanOrEqual(24);
    for (const [method, path] of rows) {
      const url = (path ?? '').replace('{userId}', ':userId');
      expect(server.app.hasRoute({ method: method as 'GET' | 'POST', url }), `${method} ${path}`).toBe(true);
    }
    // The app download links are settings; unset, both are null.
    const links = await server.app.inject({ method: 'GET', url: '/anonymous/download/url' });
    expect(links.json()).toMatchObject({ code: 0, data: { ios: null, android: null } });
  });
});

describe('registration with a code read from the mail', () => {
  it('registers, refuses the used code (6) and the taken account (103), then signs in', async () => {
    const ip = newIp();
    const account = newEmail();
    expect((await get('/anonymous/checkAccount', { query: { account }, ip })).code).toBe(0);
    const sent = await get<CodeSent>('/anonymous/getCode', { query: { account, type: 'register' }, ip });
    expect(sent).toMatchObject({ code: 0, data: { channel: 'email', expiresIn: 600, resendAfter: 60 } });
    const mail = await inbox.next(account);
    expect(mail.subject).toContain('verification code');
    const code = /\b(\d{6})\b/.exec(mail.body)?.[1] ?? '';
    const wrong = code === '000000' ? '000001' : '000000';

    expect((await get('/anonymous/checkCode', { query: { account, code: wrong }, ip })).code).toBe(Code.VERIFICATION_CODE_WRONG);
    expect((await get('/anonymous/checkCode', { query: { account, code }, ip })).code).toBe(0);
    // checkCode does not use the code up.
    expect((await get('/anonymous/checkCode', { query: { account, code }, ip })).code).toBe(0);
    expect((await post('/anonymous/signup', { account, code: wrong, password: STRONG, agree: true }, { ip })).code).toBe(
      Code.VERIFICATION_CODE_WRONG,
    );
    const done = await post('/anonymous/signup', { account: account.toUpperCase(), code, password: STRONG, agree: true }, { ip });
    expect(done).toMatchObject({ code: 0, data: { account } });
    // Single use: the same code again is spent (6), and the account is now taken (103).
    expect((await get('/anonymous/checkCode', { query: { account, code }, ip })).code).toBe(Code.VERIFICATION_CODE_EXPIRED);
    expect((await post('/anonymous/signup', { account, code, password: STRONG, agree: true }, { ip })).code).toBe(Code.ACCOUNT_REGISTERED);
    expect((await get('/anonymous/checkAccount', { query: { account }, ip })).code).toBe(Code.ACCOUNT_REGISTERED);

    const tokens = await signIn(server.app, account, STRONG);
    const me = await call<{ userid: { account: string; role: string; nickname: string } }>(server.app, 'GET', '/api/v1/user', {
      token: tokens.access_token,
    });
    expect(me.body.data.userid).toMatchObject({ account, role: 'owner' });
    const [row] = await server.database.db.select().from(users).where(eq(users.account, account));
    expect(row?.email).toBe(account);
    // Codes are stored hashed: the code itself is nowhere in the table.
    const codes = await server.database.db.select().from(verificationCodes).where(eq(verificationCodes.address, account));
    expect(codes.every((c) => !c.codeHash.includes(code))).toBe(true);
  });

  it('refuses registration without the agreement ticked (4, field agree) and changes nothing', async () => {
    const ip = newIp();
    const account = newEmail();
    await get('/anonymous/getCode', { query: { account }, ip });
    const code = await inbox.nextCode(account);
    const refused = await post<{ errors: { field: string; message: string }[] }>(
      '/anonymous/signup',
      { account, code, password: STRONG, agree: false },
      { ip },
    );
    expect(refused.code).toBe(Code.VALIDATION);
    expect(refused.data.errors[0]).toMatchObject({ field: 'agree', message: 'please read and accept the user agreement' });
    expect((await get('/anonymous/checkAccount', { query: { account }, ip })).code).toBe(0);
    // The code was not spent by the refused attempt.
    expect((await get('/anonymous/checkCode', { query: { account, code }, ip })).code).toBe(0);
  });

  it('answers 6 for an expired code and voids a code after five wrong entries', async () => {
    const ip = newIp();
    const account = newEmail();
    await get('/anonymous/getCode', { query: { account }, ip });
    const code = await inbox.nextCode(account);
    await server.database.db
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verificationCodes.address, account));
    expect((await get('/anonymous/checkCode', { query: { account, code }, ip })).code).toBe(Code.VERIFICATION_CODE_EXPIRED);
    expect((await post('/anonymous/signup', { account, code, password: STRONG, agree: true }, { ip })).code).toBe(
      Code.VERIFICATION_CODE_EXPIRED,
    );

    const other = newEmail();
    await get('/anonymous/getCode', { query: { account: other }, ip });
    const right = await inbox.nextCode(other);
    const wrong = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) expect((await get('/anonymous/checkCode', { query: { account: other, code: wrong }, ip })).code).toBe(5);
    expect((await get('/anonymous/checkCode', { query: { account: other, code: right }, ip })).code).toBe(Code.VERIFICATION_CODE_EXPIRED);
  });

  it('sends a code by SMS to a mainland mobile number (outbox without a provider) and registers the phone', async () => {
    const ip = newIp();
    const phone = '13912345678';
    const sent = await get<CodeSent>('/anonymous/getCode', { query: { account: phone }, ip });
    expect(sent).toMatchObject({ code: 0, data: { channel: 'sms' } });
    const outbox = join(dataDir, 'sms-outbox');
    const text = await vi.waitFor(() => {
      const file = readdirSync(outbox).find((f) => readFileSync(join(outbox, f), 'utf8').includes(phone));
      if (!file) throw new Error('no SMS yet');
      return readFileSync(join(outbox, file), 'utf8');
    });
    const code = /\b(\d{6})\b/.exec(text.split('\n\n')[1] ?? '')?.[1] ?? '';
    expect((await post('/anonymous/signup', { account: phone, code, password: STRONG, agree: true }, { ip })).code).toBe(0);
    await signIn(server.app, phone, STRONG);
  });

  it('tells nothing through getCode: a taken address gets a notice instead of a code, an unknown reset gets nothing', async () => {
    const ip = newIp();
    const account = await registered(ip);
    // A minute later (the resend limit), someone asks to register the same address.
    await server.database.db
      .update(verificationCodes)
      .set({ createdAt: new Date(Date.now() - 61_000) })
      .where(eq(verificationCodes.address, account));
    const again = await get<CodeSent>('/anonymous/getCode', { query: { account }, ip: newIp() });
    expect(again).toMatchObject({ code: 0, data: { channel: 'email' } });
    const notice = await inbox.next(account);
    expect(notice.subject).toBe('Sunward registration');
    expect(notice.body).not.toMatch(/\b\d{6}\b/);

    const unknown = newEmail();
    const reset = await get<CodeSent>('/anonymous/getCode', { query: { account: unknown, type: 'reset' }, ip: newIp() });
    expect(reset.code).toBe(0);
    await expect(inbox.next(unknown, 500)).rejects.toThrow();
  });
});

describe('checkAccount', () => {
  it('answers 400 for a malformed account, 103 taken, 105 unknown for reset, and 429 past ten a minute', async () => {
    const account = await registered(newIp());
    // The limit counts per calendar minute: a run that crosses a minute boundary starts again from a new address.
    const minute = () => Math.floor(Date.now() / 60_000);
    let ip = '';
    let answers: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      ip = newIp();
      const started = minute();
      expect((await get('/anonymous/checkAccount', { query: { account: 'not-an-address' }, ip })).code).toBe(Code.ACCOUNT_FORMAT_INVALID);
      expect((await get('/anonymous/checkAccount', { query: { account }, ip })).code).toBe(Code.ACCOUNT_REGISTERED);
      expect((await get('/anonymous/checkAccount', { query: { account, type: 'reset' }, ip })).code).toBe(0);
      expect((await get('/anonymous/checkAccount', { query: { account: newEmail(), type: 'reset' }, ip })).code).toBe(
        Code.ACCOUNT_NOT_REGISTERED,
      );
      expect((await get('/anonymous/checkAccount', { query: { account: newEmail() }, ip })).code).toBe(0);
      answers = [];
      for (let i = 0; i < 8; i++) answers.push((await get('/anonymous/checkAccount', { query: { account: newEmail() }, ip })).code);
      // In the same minute as the ten before it: a window that turned over in between starts counting afresh.
      limited = await call(server.app, 'GET', '/anonymous/checkAccount', { query: { account: newEmail() }, ip });
      if (minute() === started) break;
    }
    expect(answers.slice(0, 5).every((c) => c === 0)).toBe(true);
    expect(answers.slice(5)).toEqual([Code.RATE_LIMITED, Code.RATE_LIMITED, Code.RATE_LIMITED]);
    expect(limited?.status).toBe(429);
    // Another client is not affected.
    expect((await get('/anonymous/checkAccount', { query: { account: newEmail() }, ip: newIp() })).code).toBe(0);
  });
});

describe('code rate limits', () => {
  it('sends one code a minute per address (429) and at most twenty an hour per client', async () => {
    const ip = newIp();
    const account = newEmail();
    expect((await get('/anonymous/getCode', { query: { account }, ip })).code).toBe(0);
    expect((await get('/anonymous/getCode', { query: { account }, ip: newIp() })).code).toBe(Code.RATE_LIMITED);
    await inbox.next(account);

    const flood = newIp();
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) codes.push((await get('/anonymous/getCode', { query: { account: newEmail() }, ip: flood })).code);
    expect(codes.slice(0, 20).every((c) => c === 0)).toBe(true);
    expect(codes[20]).toBe(Code.RATE_LIMITED);
  });

  it('answers 400 for getCode to something that is neither an e-mail nor a mobile number', async () => {
    expect((await get('/anonymous/getCode', { query: { account: 'someone' }, ip: newIp() })).code).toBe(Code.ACCOUNT_FORMAT_INVALID);
  });
});

describe('password rules (PASSWORD_POLICY=strict, the default)', () => {
  it.each([
    ['Sunrise 7Harbor', 'spaces are not allowed in a password'],
    ['sunrise7harbor', '8 to 20 letters and digits, with at least one digit and one capital letter'],
    ['SunriseHarbor', '8 to 20 letters and digits, with at least one digit and one capital letter'],
    ['Sun7', '8 to 20 letters and digits, with at least one digit and one capital letter'],
    ['Sunrise7Harbor!', '8 to 20 letters and digits, with at least one digit and one capital letter'],
    ['Password1', 'this password is too common: choose one that is harder to guess'],
    ['Qwerty123', 'this password is too common: choose one that is harder to guess'],
  ])('refuses %s with code 4 and the rule in the message', async (password, message) => {
    const ip = newIp();
    const account = newEmail();
    await get('/anonymous/getCode', { query: { account }, ip });
    const code = await inbox.nextCode(account);
    const refused = await post<{ errors: { field: string; message: string }[] }>(
      '/anonymous/signup',
      { account, code, password, agree: true },
      { ip },
    );
    expect(refused.code).toBe(Code.VALIDATION);
    expect(refused.data.errors[0]).toEqual({ field: 'password', message });
  });
});

describe('password reset', () => {
  it('resets with the mailed code, signs every session out and unlocks the new password', async () => {
    const ip = newIp();
    const account = await registered(ip);
    const before = await signIn(server.app, account, STRONG);
    expect((await get('/anonymous/checkAccount', { query: { account, type: 'reset' }, ip })).code).toBe(0);
    expect((await get('/anonymous/getCode', { query: { account, type: 'reset' }, ip })).code).toBe(0);
    const code = await inbox.nextCode(account);
    expect((await get('/anonymous/checkCode', { query: { account, code, type: 'reset' }, ip })).code).toBe(0);
    // A registration code is not a reset code.
    expect((await get('/anonymous/checkCode', { query: { account, code, type: 'register' }, ip })).code).toBe(
      Code.VERIFICATION_CODE_EXPIRED,
    );
    expect((await post('/anonymous/resetPwd', { account, code, password: 'Password1' }, { ip })).code).toBe(Code.VALIDATION);
    const wrong = code === '111111' ? '222222' : '111111';
    expect((await post('/anonymous/resetPwd', { account, code: wrong, password: 'Moonlight8River' }, { ip })).code).toBe(5);
    expect((await post('/anonymous/resetPwd', { account, code, password: 'Moonlight8River' }, { ip })).code).toBe(0);
    expect((await post('/anonymous/resetPwd', { account, code, password: 'Another9Garden' }, { ip })).code).toBe(6);

    const old = await call(server.app, 'GET', '/api/v1/user', { token: before.access_token });
    expect(old.status).toBe(401);
    const refused = await call(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'password', username: account, password: STRONG },
    });
    expect(refused.body.code).toBe(Code.WRONG_CREDENTIALS);
    await signIn(server.app, account, 'Moonlight8River');
  });
});

describe('PASSWORD_POLICY=lenient', () => {
  let lenient: TestServer;
  beforeAll(async () => {
    lenient = await startTestServer({ SMTP_URL: inbox.url, PASSWORD_POLICY: 'lenient' });
  });
  afterAll(async () => {
    await lenient?.close();
  });

  it('accepts 6 to 16 characters without spaces, refuses shorter, longer and common ones', async () => {
    const register = async (password: string) => {
      const account = newEmail();
      const ip = newIp();
      await call(lenient.app, 'GET', '/anonymous/getCode', { query: { account }, ip });
      const code = await inbox.nextCode(account);
      return (
        await call<{ errors: { message: string }[] }>(lenient.app, 'POST', '/anonymous/signup', {
          json: { account, code, password, agree: true },
          ip,
        })
      ).body;
    };
    expect((await call(lenient.app, 'GET', '/anonymous/passwordPolicy')).body.data).toEqual({ rule: 'lenient' });
    expect((await register('kx7!mq')).code).toBe(0);
    expect((await register('lowercaseonly-ok')).code).toBe(0);
    const short = await register('kx7!m');
    expect(short.data.errors[0]?.message).toBe('6 to 16 characters without spaces (upper and lower case differ)');
    expect((await register('a-very-long-password')).code).toBe(Code.VALIDATION);
    expect((await register('abc123')).data.errors[0]?.message).toBe('this password is too common: choose one that is harder to guess');
  });
});
