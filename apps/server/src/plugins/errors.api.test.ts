import { Code } from '@sunward/contracts/codes';
import { translate } from '@sunward/contracts/messages';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../test/harness.js';

/*
 * Bad input is the caller's fault (issue 15, finding 6): a NUL character in any text, an id beyond its
 * column, and the framework's own refusals (unreadable, too large or unaccepted body, huge address or
 * headers, unknown path) all answer the envelope {code, data, message} with code 4 (404 for a path) and a
 * localised message, never a 500.
 */

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
});
afterAll(async () => server?.close());

interface Answer {
  status: number;
  type: string;
  body: { code: number; data: { errors?: { field: string; message: string }[] } | null; message: string };
}

async function inject(options: InjectOptions): Promise<Answer> {
  const response = await server.app.inject(options);
  return { status: response.statusCode, type: String(response.headers['content-type']), body: response.json() };
}

const auth = () => ({ authorization: `Bearer ${token}` });

function expectFieldRefusal(answer: Answer, field: string, status = 400) {
  expect(answer.status).toBe(status);
  expect(answer.type).toContain('application/json');
  expect(answer.body.code).toBe(Code.VALIDATION);
  expect(answer.body.data?.errors?.[0]?.field).toBe(field);
  expect(answer.body.message.startsWith(`${field}: `)).toBe(true);
}

describe('NUL characters', () => {
  it('are refused with code 4 naming the field, in queries, bodies and paths, signed in or not', async () => {
    const keyword = await inject({ method: 'GET', url: '/api/v1/plants?keyword=%00', headers: auth() });
    expectFieldRefusal(keyword, 'keyword');
    expect(keyword.body.message).toBe(`keyword: ${translate('en', 'validation.nulCharacter')}`);

    const anonymous = await inject({
      method: 'GET',
      url: '/anonymous/firmware/version/timeline?product=%00',
      headers: { 'accept-language': 'de' },
    });
    expectFieldRefusal(anonymous, 'product');
    expect(anonymous.body.message).toBe(`product: ${translate('de', 'validation.nulCharacter')}`);

    const body = await inject({
      method: 'POST',
      url: '/api/v1/plant',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Nul\u0000Plant', gateways: [{ sn: 'GW\u0000' }] }),
    });
    expectFieldRefusal(body, 'name');

    const nested = await inject({
      method: 'POST',
      url: '/api/v1/plant',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: JSON.stringify({ gateways: [{ sn: 'GW\u0000' }] }),
    });
    expectFieldRefusal(nested, 'gateways.0.sn');

    const form = await inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=password&username=a%00b&password=x',
    });
    expectFieldRefusal(form, 'username');

    const path = await inject({ method: 'GET', url: '/api/v1/gateway/AB%00CD', headers: auth() });
    expect(path.status).toBeLessThan(500);
    expect(path.body.code).not.toBe(Code.SERVER_ERROR);
  });
});

describe('ids beyond their column', () => {
  it('are refused with code 4 naming the field (2^31 in a path, a query and a body)', async () => {
    expectFieldRefusal(await inject({ method: 'GET', url: '/api/v1/plant/2147483648', headers: auth() }), 'id');
    expectFieldRefusal(await inject({ method: 'GET', url: '/api/v1/inverters?plantId=99999999999', headers: auth() }), 'plantId');
    expectFieldRefusal(
      await inject({
        method: 'POST',
        url: '/api/v1/inverter/batchDelete',
        headers: { ...auth(), 'content-type': 'application/json' },
        payload: JSON.stringify({ ids: [2147483648] }),
      }),
      'ids.0',
    );
    // The largest id is still an id: not found, not refused.
    const largest = await inject({ method: 'GET', url: '/api/v1/plant/2147483647', headers: auth() });
    expect(largest.body.code).not.toBe(Code.VALIDATION);
    expect(largest.status).toBeLessThan(500);
  });
});

describe('the framework’s own refusals', () => {
  it('answer the envelope with a localised message: unreadable, unaccepted and oversize bodies, huge parameters, unknown paths', async () => {
    const json = { ...auth(), 'content-type': 'application/json', 'accept-language': 'es' };
    expectFieldRefusal(await inject({ method: 'POST', url: '/api/v1/plant', headers: json, payload: '{"name":' }), 'body');
    const unread = await inject({ method: 'POST', url: '/api/v1/plant', headers: json, payload: '{"name":' });
    expect(unread.body.message).toBe(`body: ${translate('es', 'validation.body')}`);
    expectFieldRefusal(
      await inject({ method: 'POST', url: '/api/v1/plant', headers: { ...auth(), 'content-type': 'text/xml' }, payload: '<a/>' }),
      'body',
      415,
    );
    expectFieldRefusal(
      await inject({ method: 'POST', url: '/api/v1/plant', headers: json, payload: `"${'a'.repeat(1_100_000)}"` }),
      'body',
      413,
    );
    expectFieldRefusal(await inject({ method: 'GET', url: `/api/v1/plant/${'1'.repeat(200)}`, headers: auth() }), 'url', 414);
    expectFieldRefusal(await inject({ method: 'GET', url: '/api/v1/gateway/%E0%A4%A', headers: auth() }), 'url');
    const missing = await inject({ method: 'GET', url: '/api/v1/no-such-thing', headers: { 'accept-language': 'cn' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: Code.NOT_FOUND, data: null, message: translate('cn', 'code.404') });
  });

  it('answer the envelope over HTTP for an address or headers beyond Node’s limit, and the server goes on', async () => {
    const huge = await fetch(`${server.url}/anonymous/firmware/version/timeline?product=${'x'.repeat(40_000)}`, {
      headers: { 'accept-language': 'de' },
    });
    expect(huge.status).toBe(414);
    const hugeBody = (await huge.json()) as Answer['body'];
    expect(hugeBody.code).toBe(Code.VALIDATION);
    expect(hugeBody.message).toBe(`url: ${translate('de', 'validation.urlTooLong')}`);

    const headers = await fetch(`${server.url}/anonymous/about`, { headers: { 'x-big': 'y'.repeat(40_000) } });
    expect(headers.status).toBe(431);
    expect(((await headers.json()) as Answer['body']).code).toBe(Code.VALIDATION);

    const after = await fetch(`${server.url}/api/v1/no-such-thing`);
    expect(after.status).toBe(404);
  });
});
