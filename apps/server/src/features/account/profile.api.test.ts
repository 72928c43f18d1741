import type { AccountInfo, Personalized, RecoveryCodes, SecondFactorChallenge, TwoFactorSetup } from '@sunward/contracts/account';
import type { CurrentUser } from '@sunward/contracts/auth';
import { Code } from '@sunward/contracts/codes';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../../db/schema.js';
import { apiClient, type Body, signedInUser } from '../../test/api.js';
import { call, multipartBody, signIn, type Tokens } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { type SmtpInbox, startSmtpInbox } from '../../test/smtp-inbox.js';

let server: TestServer;
let inbox: SmtpInbox;
let ipCounter = 10;
const newIp = () => `10.0.9.${++ipCounter}`;

const { get, post } = apiClient(() => server.app);
const user = () => signedInUser(server, 'owner');

/** What a user's authenticator app shows now (offset in 30 s steps: +1 is the next code). */
function totpCode(secret: string, offsetSteps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

function passwordGrant(account: string, password: string, ip = '127.0.0.1') {
  return call<SecondFactorChallenge | Tokens>(server.app, 'POST', '/oauth/token', {
    form: { grant_type: 'password', username: account, password },
    ip,
  });
}

function secondFactor(challenge: string, code: string, ip = '127.0.0.1') {
  return call<Tokens>(server.app, 'POST', '/oauth/token', { form: { grant_type: 'second_factor', challenge, code }, ip });
}

async function enrol(token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await post<TwoFactorSetup>('/api/v1/user/twoFactor/setup', {}, token);
  expect(setup.code).toBe(0);
  const enabled = await post<RecoveryCodes>('/api/v1/user/twoFactor/enable', { code: totpCode(setup.data.secret) }, token);
  expect(enabled.code).toBe(0);
  return { secret: setup.data.secret, recoveryCodes: enabled.data.recoveryCodes };
}

beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({ SMTP_URL: inbox.url, SIGN_IN_LOCK_AFTER: '4', SIGN_IN_MAX_DELAY_MS: '0' });
});

afterAll(async () => {
  await server?.close();
  await inbox?.close();
});

describe('account info and profile', () => {
  it('shows the account and changes nickname and avatar; another user id answers 2', async () => {
    const me = await user();
    const other = await user();
    const info = await get<AccountInfo>('/api/v1/user/accountInfo', me.token);
    expect(info.data).toMatchObject({
      id: me.id,
      account: me.account,
      role: 'owner',
      twoFactor: { enabled: false },
      passwordRule: 'strict',
    });
    expect(info.data.activeSessions).toBe(1);

    const renamed = await post<AccountInfo>(`/api/v1/user/${me.id}`, { nickname: 'Solar Sam' }, me.token);
    expect(renamed).toMatchObject({ code: 0, data: { nickname: 'Solar Sam' } });
    expect((await post(`/api/v1/user/${me.id}`, { nickname: 'Sam <script>' }, me.token)).code).toBe(Code.VALIDATION);
    expect((await post(`/api/v1/user/${other.id}`, { nickname: 'Hijacked' }, me.token)).code).toBe(Code.NO_PERMISSION);
    expect((await get<AccountInfo>('/api/v1/user/accountInfo', other.token)).data.nickname).not.toBe('Hijacked');

    // Avatar: PNG by content is taken and served; text named .png and a picture over 6 MB are refused.
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 1)]);
    const upload = async (bytes: Buffer) => {
      const body = multipartBody({}, { name: 'me.png', bytes });
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/v1/user/avatar',
        headers: { authorization: `Bearer ${me.token}`, 'content-type': body.contentType },
        payload: body.payload,
      });
      return response.json() as Body<{ url: string }>;
    };
    const uploaded = await upload(png);
    expect(uploaded.code).toBe(0);
    expect((await get<AccountInfo>('/api/v1/user/accountInfo', me.token)).data.avatar).toBe(uploaded.data.url);
    const served = await server.app.inject({ method: 'GET', url: uploaded.data.url });
    expect(served.headers['content-type']).toBe('image/png');
    expect((await upload(Buffer.from('just text, not a picture'))).code).toBe(Code.VALIDATION);
    const huge = Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024)]);
    const tooBig = await upload(huge);
    expect(tooBig.code).toBe(Code.VALIDATION);
    expect(JSON.stringify(tooBig.data)).toContain('at most 6 MB');
  });

  it('binds a new e-mail only with the code sent to it (5 wrong, 4 taken or missing code)', async () => {
    const me = await user();
    const other = await user();
    const email = `new-${Date.now()}@example.com`;
    expect((await post(`/api/v1/user/${me.id}`, { email }, me.token)).code).toBe(Code.VALIDATION);
    const ip = newIp();
    expect((await call(server.app, 'GET', '/anonymous/sendBindCode', { query: { account: email }, ip })).body.code).toBe(0);
    const code = await inbox.nextCode(email);
    const wrong = code === '999999' ? '999998' : '999999';
    expect((await post(`/api/v1/user/${me.id}`, { email, emailCode: wrong }, me.token)).code).toBe(Code.VERIFICATION_CODE_WRONG);
    const bound = await post<AccountInfo>(`/api/v1/user/${me.id}`, { email, emailCode: code }, me.token);
    expect(bound).toMatchObject({ code: 0, data: { email } });
    // The other user cannot take the same address.
    const taken = await post<{ errors: { field: string; message: string }[] }>(
      `/api/v1/user/${other.id}`,
      { email, emailCode: code },
      other.token,
    );
    expect(taken.code).toBe(Code.VALIDATION);
    expect(taken.data.errors[0]).toEqual({ field: 'email', message: 'this address is already used by another account' });
    // An empty string removes it.
    expect((await post<AccountInfo>(`/api/v1/user/${me.id}`, { email: '' }, me.token)).data.email).toBeNull();
  });
});

describe('password change', () => {
  it('answers 108 for a wrong old password, 4 for a weak new one, then signs the other sessions out', async () => {
    const me = await user();
    const second = await signIn(server.app, me.account, me.password);
    expect((await post(`/api/v1/user/${me.id}/pwd`, { oldPassword: 'not-my-password', password: 'Harbor8Lights' }, me.token)).code).toBe(
      Code.OLD_PASSWORD_WRONG,
    );
    // 108 does not end the caller's own session (102 would sign them out).
    expect((await get('/api/v1/user', me.token)).code).toBe(0);
    expect((await post(`/api/v1/user/${me.id}/pwd`, { oldPassword: me.password, password: 'Password1' }, me.token)).code).toBe(
      Code.VALIDATION,
    );
    const changed = await post<{ otherSessionsSignedOut: number }>(
      `/api/v1/user/${me.id}/pwd`,
      { oldPassword: me.password, password: 'Harbor8Lights' },
      me.token,
    );
    expect(changed).toMatchObject({ code: 0, data: { otherSessionsSignedOut: 1 } });
    expect((await call(server.app, 'GET', '/api/v1/user', { token: second.access_token })).status).toBe(401);
    expect((await get('/api/v1/user', me.token)).code).toBe(0);
    await signIn(server.app, me.account, 'Harbor8Lights');
  });
});

describe('personalized settings', () => {
  it('answers defaults, keeps changes, and refuses values outside the lists', async () => {
    const me = await user();
    expect((await get<Personalized>('/api/v1/user/personalized', me.token)).data).toEqual({
      language: 'en',
      styleType: 'light',
      homePage: '/plants',
      pageSize: 20,
    });
    const saved = await post<Personalized>('/api/v1/user/personalized', { language: 'de', styleType: 'dark', pageSize: 50 }, me.token);
    expect(saved.data).toEqual({ language: 'de', styleType: 'dark', homePage: '/plants', pageSize: 50 });
    expect((await get<Personalized>('/api/v1/user/personalized', me.token)).data.language).toBe('de');
    expect((await get<CurrentUser>('/api/v1/user', me.token)).data.userid.language).toBe('de');
    expect((await post('/api/v1/user/personalized', { pageSize: 7 }, me.token)).code).toBe(Code.VALIDATION);
    expect((await post('/api/v1/user/personalized', { homePage: 'https://evil.example' }, me.token)).code).toBe(Code.VALIDATION);
  });
});

describe('two-factor sign-in', () => {
  it('enrols with a first code, then asks for it at sign-in (112) and accepts each code once', async () => {
    const me = await user();
    const setup = await post<TwoFactorSetup>('/api/v1/user/twoFactor/setup', {}, me.token);
    expect(setup.data.uri).toMatch(/^otpauth:\/\/totp\/Sunward:.+secret=/);
    const wrongFirst = totpCode(setup.data.secret) === '000000' ? '000001' : '000000';
    expect((await post('/api/v1/user/twoFactor/enable', { code: wrongFirst }, me.token)).code).toBe(Code.VERIFICATION_CODE_WRONG);
    const enabled = await post<RecoveryCodes>('/api/v1/user/twoFactor/enable', { code: totpCode(setup.data.secret) }, me.token);
    expect(enabled.data.recoveryCodes).toHaveLength(10);
    expect((await get<AccountInfo>('/api/v1/user/accountInfo', me.token)).data.twoFactor).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
      requiredByCompany: false,
    });

    const first = await passwordGrant(me.account, me.password);
    expect(first.body.code).toBe(Code.SECOND_FACTOR_REQUIRED);
    const { challenge } = first.body.data as SecondFactorChallenge;
    expect((await secondFactor(challenge, '12345x')).body.code).toBe(Code.VERIFICATION_CODE_WRONG);
    // The code used to enrol is spent; the next one the app shows signs in, once.
    const next = totpCode(setup.data.secret, 1);
    const done = await secondFactor(challenge, next);
    expect(done.body.code).toBe(0);
    expect((await get('/api/v1/user', done.body.data.access_token)).code).toBe(0);
    expect((await secondFactor(challenge, next)).body.code).toBe(Code.SECOND_FACTOR_EXPIRED);
    const again = (await passwordGrant(me.account, me.password)).body.data as SecondFactorChallenge;
    expect((await secondFactor(again.challenge, next)).body.code).toBe(Code.VERIFICATION_CODE_WRONG);
    expect((await secondFactor('x'.repeat(43), next)).body.code).toBe(Code.SECOND_FACTOR_EXPIRED);
  });

  it('signs in with a recovery code once, and counts wrong codes towards the sign-in lock', async () => {
    const me = await user();
    const { recoveryCodes } = await enrol(me.token);
    const recovery = recoveryCodes[0] ?? '';
    const ip = newIp();
    const challenge = ((await passwordGrant(me.account, me.password, ip)).body.data as SecondFactorChallenge).challenge;
    expect((await secondFactor(challenge, recovery.toUpperCase(), ip)).body.code).toBe(0);
    const second = ((await passwordGrant(me.account, me.password, ip)).body.data as SecondFactorChallenge).challenge;
    expect((await secondFactor(second, recovery, ip)).body.code).toBe(Code.VERIFICATION_CODE_WRONG);
    expect((await get<AccountInfo>('/api/v1/user/accountInfo', me.token)).data.twoFactor.recoveryCodesLeft).toBe(9);
    // SIGN_IN_LOCK_AFTER is 4 here: three more wrong codes lock the account, even for the right code.
    expect((await secondFactor(second, 'wrong-codes', ip)).body.code).toBe(Code.VERIFICATION_CODE_WRONG);
    expect((await secondFactor(second, 'wrong-codes', ip)).body.code).toBe(Code.VERIFICATION_CODE_WRONG);
    expect((await secondFactor(second, 'wrong-codes', ip)).body.code).toBe(Code.SIGN_IN_LOCKED);
    expect((await secondFactor(second, recoveryCodes[1] ?? '', ip)).body.code).toBe(Code.SIGN_IN_LOCKED);
  });

  it('turns off only with the password (708) and not while the company requires it (114)', async () => {
    const me = await user();
    await enrol(me.token);
    expect((await post('/api/v1/user/twoFactor/disable', { password: 'wrong' }, me.token)).code).toBe(Code.CONFIRM_PASSWORD_WRONG);
    expect((await post('/api/v1/user/twoFactor/disable', { password: me.password }, me.token)).code).toBe(0);
    expect((await passwordGrant(me.account, me.password)).body.code).toBe(0);

    const companyId = await server.createCompany(`Strict Solar ${Date.now()}`);
    await server.database.db.update(companies).set({ requireTwoFactor: true }).where(eq(companies.id, companyId));
    const staff = await server.createUser('company_staff', undefined, { companyId });
    const token = (await signIn(server.app, staff.account, staff.password)).access_token;
    expect((await get<CurrentUser>('/api/v1/user', token)).data.userid.twoFactorSetupRequired).toBe(true);
    // Until it is set up, the API serves only the member's own account: the rest answers 115.
    expect((await get('/api/v1/plants', token)).code).toBe(Code.TWO_FACTOR_SETUP_REQUIRED);
    expect((await get('/api/v1/inverters', token)).code).toBe(Code.TWO_FACTOR_SETUP_REQUIRED);
    await enrol(token);
    expect((await get('/api/v1/plants', token)).code).toBe(0);
    expect((await get<CurrentUser>('/api/v1/user', token)).data.userid.twoFactorSetupRequired).toBe(false);
    expect((await post('/api/v1/user/twoFactor/disable', { password: staff.password }, token)).code).toBe(
      Code.TWO_FACTOR_REQUIRED_BY_COMPANY,
    );
    expect((await passwordGrant(staff.account, staff.password)).body.code).toBe(Code.SECOND_FACTOR_REQUIRED);
  });
});
