import { readFileSync } from 'node:fs';
import { createSunwardClient } from '@sunward/api-client';
import { Code } from '@sunward/contracts/codes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type TestServer } from '../test/harness.js';

// The API document (issue 25): what the server serves is the checked-in packages/api-client/openapi.json (so the
// generated client is the server's), every operation is documented, and the typed client works against it.
const CHECKED_IN = new URL('../../../../packages/api-client/openapi.json', import.meta.url);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: { name: string; in: string; description?: string }[];
  'x-codes'?: { code: number; name: string }[];
  responses: Record<string, unknown>;
}
interface Document {
  servers?: { url: string }[];
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components: { schemas: Record<string, unknown> };
}

let server: TestServer;
let served: Document;
const operations: { method: string; path: string; operation: Operation }[] = [];

beforeAll(async () => {
  // The external broker's auth calls are in the document too (dump-cli switches them on the same way).
  server = await startTestServer({ MQTT_AUTH_TOKEN: 'document-only-token-0123456789abcdef' });
  served = (await server.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Document;
  for (const [path, item] of Object.entries(served.paths))
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) operations.push({ method, path, operation });
    }
});

afterAll(async () => {
  await server?.close();
});

describe('the API document', () => {
  it('is the checked-in packages/api-client/openapi.json (regenerate with `npm run api:document` after changing a route)', () => {
    expect(served).toEqual(JSON.parse(readFileSync(CHECKED_IN, 'utf8')));
  });

  it('gives every operation a unique camelCase operationId, a summary and a description (a new route must declare a summary)', () => {
    expect(operations.length).toBeGreaterThan(300);
    const missing = operations.filter(({ operation }) => !operation.summary?.trim()).map(({ method, path }) => `${method} ${path}`);
    expect(missing, 'routes without schema.summary').toEqual([]);
    for (const { operation } of operations) {
      expect(operation.operationId).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(operation.description?.length).toBeGreaterThan(10);
    }
    const ids = operations.map(({ operation }) => operation.operationId);
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    expect(repeated, 'operationIds used twice: give one route an explicit schema.operationId').toEqual([]);
  });

  it('describes every parameter, lists each operation’s business codes, and marks public routes security: []', () => {
    for (const { method, path, operation } of operations) {
      for (const parameter of operation.parameters ?? [])
        expect(parameter.description, `${method} ${path} ${parameter.name}`).toMatch(/\w{3}/);
      const codes = (operation['x-codes'] ?? []).map((entry) => entry.code);
      expect(codes, `${method} ${path}`).toContain(Code.OK);
      expect(codes).toContain(Code.RATE_LIMITED);
      const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
      // A public route answers no session refusal; one that checks its own credential (the open API's key)
      // declares that security itself, with its own codes.
      if (isPublic) expect(codes, `${method} ${path}`).not.toContain(Code.TOKEN_INVALID);
      if (codes.includes(Code.TOKEN_INVALID)) expect(operation.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    }
    const token = served.paths['/oauth/token']?.post;
    expect(token?.security).toEqual([]);
    // Codes a route declares (schema 'x-codes': what its service throws for it) are the operation's own.
    const codesOf = (path: string, method: (typeof METHODS)[number]) =>
      (served.paths[path]?.[method]?.['x-codes'] ?? []).map((entry) => entry.code);
    expect(codesOf('/oauth/token', 'post')).toEqual(expect.arrayContaining([Code.WRONG_CREDENTIALS, Code.SIGN_IN_LOCKED]));
    expect(codesOf('/api/v1/openApi/webhooks', 'post')).toEqual(expect.arrayContaining([Code.WEBHOOK_LIMIT, Code.WEBHOOK_URL_REFUSED]));
    expect(codesOf('/api/v1/plant/{id}/layout/{type}', 'post')).toContain(Code.LAYOUT_VERSION_STALE);
    expect(codesOf('/api/v1/plant/{id}/realtime', 'get')).toContain(Code.PLANT_NOT_FOUND);
    expect(codesOf('/api/v1/inverter/{sn}/shutdown', 'post')).toEqual(
      expect.arrayContaining([Code.INVERTER_NOT_FOUND, Code.DEVICE_OFFLINE, Code.COMMAND_CAP_REACHED]),
    );
    expect(codesOf('/api/v1/plants', 'get')).not.toContain(Code.PLANT_NOT_FOUND);
    expect(served.servers?.[0]?.url).toBe('/');
  });

  it('references the contracts’ shapes as components instead of repeating them', () => {
    expect(Object.keys(served.components.schemas)).toEqual(expect.arrayContaining(['TokenResponse', 'PlantCreateInput', 'Envelope']));
    const plantCreate = served.paths['/api/v1/plant']?.post;
    expect(JSON.stringify(plantCreate)).toContain('#/components/schemas/PlantCreateInput');
  });

  it('documents each of the two battery/{…} and meter/{…}/settings operations at one path each', () => {
    const paths = Object.keys(served.paths);
    expect(paths).not.toContain('/api/v1/battery/{id}');
    expect(paths).not.toContain('/api/v1/meter/{id}/settings');
    expect(served.paths['/api/v1/firmware/battery/{id}']?.post?.operationId).toBe('postFirmwareBatteryById');
    expect(served.paths['/api/v1/meter/{id}/settings/save']?.post?.operationId).toBe('postMeterByIdSettingsSave');
  });
});

describe('the generated client (packages/api-client) against the server', () => {
  it('signs in, reads the signed-in user and a page of messages, typed by the document', async () => {
    const client = createSunwardClient({ baseUrl: server.url });
    const signIn = await client.POST('/oauth/token', {
      body: { grant_type: 'password', username: ADMIN.account, password: ADMIN.password },
    });
    expect(signIn.data?.code).toBe(Code.OK);
    const token = signIn.data?.data.access_token;
    expect(token).toEqual(expect.any(String));
    const signedIn = createSunwardClient({ baseUrl: server.url, headers: { authorization: `Bearer ${token}` } });
    const user = await signedIn.GET('/api/v1/user', { params: { query: {} } });
    expect(user.data?.data.userid.account).toBe(ADMIN.account);
    const messages = await signedIn.GET('/api/v1/messages', { params: { query: { page: 1, size: 5 } } });
    expect(messages.data?.code).toBe(Code.OK);
    expect(Array.isArray(messages.data?.data.infos)).toBe(true);
  });

  it('says what is wrong with a value of the wrong type, in the caller’s language (`size: expected an integer`)', async () => {
    const client = createSunwardClient({ baseUrl: server.url });
    const signIn = await client.POST('/oauth/token', {
      body: { grant_type: 'password', username: ADMIN.account, password: ADMIN.password },
    });
    const token = signIn.data?.data.access_token ?? '';
    const ask = (query: string, language = 'en') =>
      fetch(`${server.url}/api/v1/messages?${query}`, { headers: { authorization: `Bearer ${token}`, 'accept-language': language } }).then(
        async (response) => ({
          status: response.status,
          body: (await response.json()) as { code: number; message: string; data: unknown },
        }),
      );
    const wrong = await ask('size=abc');
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe(Code.VALIDATION);
    expect(wrong.body.message).toBe('size: expected an integer');
    expect(wrong.body.data).toEqual({ errors: [{ field: 'size', message: 'expected an integer' }] });
    expect((await ask('size=1.5')).body.message).toBe('size: expected an integer');
    expect((await ask('size=abc', 'de')).body.message).toBe('size: ganze Zahl erwartet');
    expect((await ask('page=x', 'zh-CN')).body.message).toBe('page：应为整数');
  });
});
