import { Code } from '@sunward/contracts/codes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGuardedPath } from './plugins/auth.js';
import { call, signIn } from './test/client.js';
import { ADMIN, startTestServer, type TestServer } from './test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('every route is guarded', () => {
  it('declares its access (public, signed-in or a permission key) on every API route', () => {
    const api = server.app.routeAccessTable.filter((r) => isGuardedPath(r.url));
    expect(api.length).toBeGreaterThan(5);
    for (const route of api) expect(route.access, `${route.method} ${route.url}`).toBeDefined();
  });

  it('answers HTTP 401 to every non-public route called without a token', async () => {
    const guarded = server.app.routeAccessTable.filter((r) => isGuardedPath(r.url) && r.requires !== 'public' && r.method !== 'HEAD');
    for (const route of guarded) {
      const url = route.url.replace(/:(\w+)/g, '1');
      const result = await call(server.app, route.method as 'GET' | 'POST', url);
      expect(result.status, `${route.method} ${route.url}`).toBe(401);
      expect(result.body.code).toBe(Code.TOKEN_INVALID);
    }
  });
});

describe('the envelope', () => {
  it('answers unknown /api/v1 paths with HTTP 404 and the envelope, in the caller’s language', async () => {
    const en = await call(server.app, 'GET', '/api/v1/no-such-call');
    expect(en.status).toBe(404);
    expect(en.body).toEqual({ code: Code.NOT_FOUND, data: null, message: 'This address does not exist.' });
    const cz = await call(server.app, 'GET', '/api/v1/no-such-call', { headers: { 'accept-language': 'cs-CZ,cs;q=0.9' } });
    expect(cz.body.message).not.toBe(en.body.message);
  });

  it('returns the current user in the spec’s shape', async () => {
    const { access_token } = await signIn(server.app, ADMIN.account, ADMIN.password);
    const result = await call<{ userid: Record<string, unknown> }>(server.app, 'GET', '/api/v1/user', {
      token: access_token,
      query: { lan: 'zh' },
    });
    expect(result.body.code).toBe(0);
    expect(result.body.data.userid).toMatchObject({
      account: ADMIN.account,
      nickname: expect.any(String),
      avatar: null,
      company: null,
      role: 'platform_admin',
    });
  });

  it('echoes a request id header on every response', async () => {
    const result = await call(server.app, 'GET', '/anonymous/about');
    expect(result.headers['x-request-id']).toEqual(expect.any(String));
    expect(result.body.data).toMatchObject({ name: 'Sunward', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });
});

describe('request bodies (spec 01 §7)', () => {
  it('accepts multipart form data as well as url-encoded and JSON', async () => {
    const form = new FormData();
    form.append('grant_type', 'password');
    form.append('username', ADMIN.account);
    form.append('password', ADMIN.password);
    const request = new Request('http://local/oauth/token', { method: 'POST', body: form });
    const response = await server.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(response.json()).toMatchObject({ code: 0, data: { token_type: 'bearer' } });
  });

  it('answers code 4 for a body it cannot read, without a stack trace', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/xml' },
      payload: '<x/>',
    });
    const body = response.json() as { code: number; message: string };
    expect(body.code).toBe(Code.VALIDATION);
    expect(body.message).not.toMatch(/at .*\.ts/);
  });
});

describe('security headers', () => {
  it('sends a strict CSP, nosniff and frame protection', async () => {
    const result = await call(server.app, 'GET', '/anonymous/about');
    const csp = String(result.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(result.headers['x-content-type-options']).toBe('nosniff');
    expect(result.headers['x-frame-options']).toBe('DENY');
  });
});

describe('OpenAPI', () => {
  it('serves a document generated from the route schemas, and a browsable page', async () => {
    const doc = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    const json = doc.json() as { paths: Record<string, unknown> };
    expect(Object.keys(json.paths)).toEqual(expect.arrayContaining(['/oauth/token', '/api/v1/user', '/api/v1/permission']));
    const page = await server.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(page.statusCode);
  });
});
