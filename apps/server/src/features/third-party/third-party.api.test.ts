import { readFileSync } from 'node:fs';
import type { RecoveryCodes, SecondFactorChallenge, TwoFactorSetup } from '@sunward/contracts/account';
import type { CurrentUser } from '@sunward/contracts/auth';
import { Code } from '@sunward/contracts/codes';
import type {
  BoundIdentity,
  ThirdPartyAuthorizeResponse,
  ThirdPartyProvider,
  ThirdPartyPurpose,
  ThirdPartyTokenResponse,
} from '@sunward/contracts/third-party';
import { eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../db/rows.js';
import { oidcFlows, users } from '../../db/schema.js';
import { call, signIn, type Tokens } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { startTestOidcProvider, type TestOidcProvider } from '../../test/oidc-test-provider.js';

/** The API test plays the browser, so the console's address only has to be one the provider accepts. */
const REDIRECT = 'http://127.0.0.1:9/loginThird';

let server: TestServer;
let idp: TestOidcProvider;
let subjects = 0;

beforeAll(async () => {
  idp = await startTestOidcProvider({ redirectUris: [REDIRECT] });
  const mixUp = { ...idp.entry('mixup', 'Mix-up'), issuer: idp.issuer.replace('127.0.0.1', 'localhost') };
  server = await startTestServer({
    OIDC_PROVIDERS: JSON.stringify([idp.entry('testid', 'Test ID'), mixUp]),
    OIDC_REDIRECT_URL: REDIRECT,
  });
});
afterAll(async () => {
  await server?.close();
  await idp?.close();
});

/** A subject nobody has used yet in this file. */
const newLogin = () => `person-${++subjects}`;

async function startFlow(purpose: ThirdPartyPurpose = 'signIn', provider = 'testid', ip?: string) {
  const r = await call<ThirdPartyAuthorizeResponse>(server.app, 'POST', '/oauth/third/authorize', { json: { provider, purpose }, ip });
  expect(r.body.code, r.body.message).toBe(0);
  return r.body.data;
}

interface Callback {
  code: string;
  state: string;
  iss: string | undefined;
}

async function atProvider(flow: ThirdPartyAuthorizeResponse, login: string, tamper?: (url: URL) => void): Promise<Callback> {
  const url = new URL(flow.authorizationUrl);
  tamper?.(url);
  const back = await idp.signInAs(url.toString(), login);
  const code = back.searchParams.get('code');
  const state = back.searchParams.get('state');
  if (!code || !state) throw new Error(`provider answered ${back.search}`);
  return { code, state, iss: back.searchParams.get('iss') ?? undefined };
}

function complete(callback: Callback, browserKey: string) {
  return call<ThirdPartyTokenResponse>(server.app, 'POST', '/oauth/third/token', { json: { ...callback, browserKey } });
}

/** The whole flow as a browser runs it: start, provider login and consent, back to /loginThird. */
async function runFlow(login: string, purpose: ThirdPartyPurpose = 'signIn') {
  const flow = await startFlow(purpose);
  return complete(await atProvider(flow, login), flow.browserKey);
}

async function ticketFor(login: string, purpose: ThirdPartyPurpose = 'signIn'): Promise<string> {
  const r = await runFlow(login, purpose);
  if (r.body.data.outcome !== 'bindingRequired') throw new Error(`expected a ticket: ${JSON.stringify(r.body)}`);
  return r.body.data.ticket;
}

async function newUser() {
  const user = await server.createUser('owner');
  const token = (await signIn(server.app, user.account, user.password)).access_token;
  return { ...user, token };
}

const bind = (token: string, ticket: string) =>
  call<BoundIdentity[]>(server.app, 'POST', '/api/v1/user/third/bind', { token, json: { ticket } });
const unbind = (token: string, provider: string) =>
  call<BoundIdentity[]>(server.app, 'POST', '/api/v1/user/third/unbind', { token, json: { provider } });

describe('the calls', () => {
  it('answers every third-party row of calls.tsv', () => {
    const rows = readFileSync(new URL('../../../../../docs/spec/calls.tsv', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.split('\t'))
      .filter(([, path, area]) => area === 'Authentication and account' && /\/third\//.test(path ?? ''));
    expect(rows.length).toBe(4);
    for (const [method, path] of rows)
      expect(server.app.hasRoute({ method: method as 'POST', url: path ?? '' }), `${method} ${path}`).toBe(true);
  });

  it('lists the configured providers with id and name only, to anyone', async () => {
    const r = await call<ThirdPartyProvider[]>(server.app, 'POST', '/oauth/third/config');
    expect(r.body).toMatchObject({
      code: 0,
      data: [
        { id: 'testid', name: 'Test ID' },
        { id: 'mixup', name: 'Mix-up' },
      ],
    });
    expect(JSON.stringify(r.body)).not.toMatch(/secret|clientId/i);
  });
});

describe('starting a flow', () => {
  it('answers the provider’s authorization URL with PKCE S256, state and nonce; the verifier stays on the server', async () => {
    const flow = await startFlow();
    const url = new URL(flow.authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/auth`);
    const p = Object.fromEntries(url.searchParams);
    expect(p).toMatchObject({ response_type: 'code', client_id: 'sunward-console', redirect_uri: REDIRECT, state: flow.state });
    expect(p.code_challenge_method).toBe('S256');
    expect(p.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(p.nonce).toMatch(/^[\w-]{43}$/);
    expect(p.scope?.split(' ')).toEqual(['openid', 'email', 'profile']);
    const [stored] = await sqlRows(
      server.database.db,
      { code_verifier: oidcFlows.codeVerifier, state_hash: oidcFlows.stateHash },
      sql`select code_verifier, state_hash from oidc_flows where nonce = ${p.nonce ?? ''}`,
    );
    expect(stored?.state_hash).not.toBe(flow.state);
    expect(flow.authorizationUrl).not.toContain(stored?.code_verifier);
  });

  it('refuses an unknown provider with 120 and a malformed id with 4', async () => {
    const unknown = await call(server.app, 'POST', '/oauth/third/authorize', { json: { provider: 'nobody' } });
    expect(unknown.body.code).toBe(Code.THIRD_PARTY_PROVIDER_UNKNOWN);
    const malformed = await call(server.app, 'POST', '/oauth/third/authorize', { json: { provider: 'Not An Id!' } });
    expect(malformed.body.code).toBe(Code.VALIDATION);
  });

  it('refuses a provider whose discovery document names another issuer with 122', async () => {
    const r = await call(server.app, 'POST', '/oauth/third/authorize', { json: { provider: 'mixup' } });
    expect(r.body.code).toBe(Code.THIRD_PARTY_PROVIDER_FAILED);
    expect(r.body.message).toMatch(/provider/i);
  });

  it('limits the flows one address may have open with 429', async () => {
    const ip = '10.9.8.7';
    for (let i = 0; i < 30; i++) await startFlow('signIn', 'testid', ip);
    const r = await call(server.app, 'POST', '/oauth/third/authorize', { json: { provider: 'testid' }, ip });
    expect(r.body.code).toBe(Code.RATE_LIMITED);
  });
});

describe('signing in', () => {
  it('gives an unbound identity a binding ticket with what the provider said about it', async () => {
    const login = newLogin();
    const r = await runFlow(login);
    expect(r.body).toMatchObject({
      code: 0,
      data: {
        outcome: 'bindingRequired',
        purpose: 'signIn',
        identity: { provider: { id: 'testid', name: 'Test ID' }, email: `${login}@idp.test`, name: `Test ${login}` },
      },
    });
  });

  it('binds the identity after a password sign-in, then the full code flow signs that user in', async () => {
    const user = await newUser();
    const login = newLogin();
    const bound = await bind(user.token, await ticketFor(login));
    expect(bound.body).toMatchObject({ code: 0, data: [{ provider: { id: 'testid', name: 'Test ID' }, email: `${login}@idp.test` }] });

    const r = await runFlow(login);
    expect(r.body.code).toBe(0);
    if (r.body.data.outcome !== 'signedIn') throw new Error('not signed in');
    expect(r.body.data).toMatchObject({ token_type: 'bearer', expires_in: expect.any(Number), refresh_token: expect.any(String) });
    const me = await call<CurrentUser>(server.app, 'GET', '/api/v1/user', { token: r.body.data.access_token });
    expect(me.body.data.userid.account).toBe(user.account);
    const list = await call<BoundIdentity[]>(server.app, 'GET', '/api/v1/user/third', { token: user.token });
    expect(list.body.data[0]?.lastUsedAt).not.toBeNull();
  });

  it('refuses a replayed callback (state used) with 121, and an old code with a fresh state with 122', async () => {
    const flow = await startFlow();
    const callback = await atProvider(flow, newLogin());
    expect((await complete(callback, flow.browserKey)).body.code).toBe(0);
    expect((await complete(callback, flow.browserKey)).body.code).toBe(Code.THIRD_PARTY_STATE_INVALID);
    const fresh = await startFlow();
    const replayedCode = await complete({ ...callback, state: fresh.state }, fresh.browserKey);
    expect(replayedCode.body.code).toBe(Code.THIRD_PARTY_PROVIDER_FAILED);
  });

  it('refuses a callback completed without the browser key of the browser that started it with 121', async () => {
    const flow = await startFlow();
    const callback = await atProvider(flow, newLogin());
    const other = await startFlow();
    expect((await complete(callback, other.browserKey)).body.code).toBe(Code.THIRD_PARTY_STATE_INVALID);
    // The state is used up by the attempt: the right key cannot finish it afterwards either.
    expect((await complete(callback, flow.browserKey)).body.code).toBe(Code.THIRD_PARTY_STATE_INVALID);
  });

  it('refuses an expired state with 121', async () => {
    const flow = await startFlow();
    const callback = await atProvider(flow, newLogin());
    await server.database.db.execute(sql`update oidc_flows set expires_at = now() - interval '1 second'`);
    expect((await complete(callback, flow.browserKey)).body.code).toBe(Code.THIRD_PARTY_STATE_INVALID);
  });

  it('refuses an ID token whose nonce is not the one this flow sent with 123', async () => {
    const flow = await startFlow();
    const callback = await atProvider(flow, newLogin(), (url) =>
      url.searchParams.set('nonce', 'a-nonce-someone-else-chose-0123456789abcdef'),
    );
    expect((await complete(callback, flow.browserKey)).body.code).toBe(Code.THIRD_PARTY_TOKEN_INVALID);
  });

  it('refuses an answer naming another issuer (mix-up) with 123', async () => {
    const flow = await startFlow();
    const callback = await atProvider(flow, newLogin());
    const r = await complete({ ...callback, iss: 'https://evil.example' }, flow.browserKey);
    expect(r.body.code).toBe(Code.THIRD_PARTY_TOKEN_INVALID);
  });

  it('refuses a disabled account with 101', async () => {
    const user = await newUser();
    const login = newLogin();
    await bind(user.token, await ticketFor(login));
    await server.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
    expect((await runFlow(login)).body.code).toBe(Code.ACCOUNT_DISABLED);
  });

  it('asks an account with two-factor sign-in for its code after the provider (112); the code then signs in', async () => {
    const user = await newUser();
    const login = newLogin();
    await bind(user.token, await ticketFor(login));
    const setup = await call<TwoFactorSetup>(server.app, 'POST', '/api/v1/user/twoFactor/setup', { token: user.token, json: {} });
    const code = new TOTP({ secret: Secret.fromBase32(setup.body.data.secret) }).generate();
    const enabled = await call<RecoveryCodes>(server.app, 'POST', '/api/v1/user/twoFactor/enable', { token: user.token, json: { code } });
    expect(enabled.body.code, enabled.body.message).toBe(0);

    const r = await runFlow(login);
    expect(r.body.code).toBe(Code.SECOND_FACTOR_REQUIRED);
    const { challenge } = r.body.data as unknown as SecondFactorChallenge;
    const second = await call<Tokens>(server.app, 'POST', '/oauth/token', {
      form: { grant_type: 'second_factor', challenge, code: enabled.body.data.recoveryCodes[0] ?? '' },
    });
    expect(second.body.code, second.body.message).toBe(0);
    const me = await call<CurrentUser>(server.app, 'GET', '/api/v1/user', { token: second.body.data.access_token });
    expect(me.body.data.userid.account).toBe(user.account);
  });

  it('refuses a malformed completion with 4', async () => {
    const r = await call(server.app, 'POST', '/oauth/third/token', { json: { code: 'x' } });
    expect(r.body.code).toBe(Code.VALIDATION);
  });
});

describe('binding and unbinding', () => {
  it('needs a signed-in caller', async () => {
    const ticket = await ticketFor(newLogin());
    const r = await call(server.app, 'POST', '/api/v1/user/third/bind', { json: { ticket } });
    expect(r.body.code).toBe(Code.TOKEN_INVALID);
  });

  it('uses a ticket once (124), and refuses an unknown one with 124', async () => {
    const user = await newUser();
    const ticket = await ticketFor(newLogin());
    expect((await bind(user.token, ticket)).body.code).toBe(0);
    expect((await bind(user.token, ticket)).body.code).toBe(Code.THIRD_PARTY_TICKET_INVALID);
    expect((await bind(user.token, 'x'.repeat(43))).body.code).toBe(Code.THIRD_PARTY_TICKET_INVALID);
  });

  it('refuses to bind an identity bound to one user to another with 125', async () => {
    const first = await newUser();
    const second = await newUser();
    const login = newLogin();
    await bind(first.token, await ticketFor(login));
    // From personal settings the flow always ends in a ticket, even for an identity bound elsewhere.
    const r = await bind(second.token, await ticketFor(login, 'bind'));
    expect(r.body.code).toBe(Code.THIRD_PARTY_BOUND_ELSEWHERE);
    const list = await call<BoundIdentity[]>(server.app, 'GET', '/api/v1/user/third', { token: second.token });
    expect(list.body.data).toEqual([]);
  });

  it('binds one identity per provider (126); binding one’s own identity again changes nothing', async () => {
    const user = await newUser();
    const login = newLogin();
    await bind(user.token, await ticketFor(login));
    expect((await bind(user.token, await ticketFor(login, 'bind'))).body).toMatchObject({
      code: 0,
      data: [{ email: `${login}@idp.test` }],
    });
    expect((await bind(user.token, await ticketFor(newLogin(), 'bind'))).body.code).toBe(Code.THIRD_PARTY_ALREADY_BOUND);
  });

  it('unbinds: the identity then asks to be bound again; a second unbind answers 127', async () => {
    const user = await newUser();
    const login = newLogin();
    await bind(user.token, await ticketFor(login));
    expect((await unbind(user.token, 'testid')).body).toMatchObject({ code: 0, data: [] });
    expect((await runFlow(login)).body.data).toMatchObject({ outcome: 'bindingRequired' });
    expect((await unbind(user.token, 'testid')).body.code).toBe(Code.THIRD_PARTY_NOT_BOUND);
  });

  it('refuses bind and unbind to a read-only account with 2', async () => {
    const user = await newUser();
    await server.database.db.update(users).set({ readOnly: true }).where(eq(users.id, user.id));
    expect((await bind(user.token, await ticketFor(newLogin()))).body.code).toBe(Code.NO_PERMISSION);
    expect((await unbind(user.token, 'testid')).body.code).toBe(Code.NO_PERMISSION);
  });
});
