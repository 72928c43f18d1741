import { Code } from '@sunward/contracts/codes';
import { GATEWAY_KEY_PATTERN, gatewayRefusedTopic, gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { GatewayRefusals, GatewayRegisterResult } from '@sunward/contracts/gateways';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gateways, operationLog } from '../../db/schema.js';
import { apiClient, signedInCast } from '../../test/api.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

// Gateway registration over JSON and a gateway's refusals (issue 25).
let server: TestServer;
let cast: Awaited<ReturnType<typeof signedInCast>>;
const { get, post } = apiClient(() => server.app);

beforeAll(async () => {
  server = await startTestServer();
  cast = await signedInCast(server, 'Register Co');
});
afterAll(async () => {
  await server?.close();
});

describe('POST /api/v1/gateways', () => {
  it('registers one gateway in the caller company and answers a generated 16-hex key once; the gateway connects with it', async () => {
    const body = await post<GatewayRegisterResult>('/api/v1/gateways', { sn: 'GWJSON0001', alias: 'Roof east' }, cast.companyAdmin);
    expect(body.code).toBe(0);
    const [entry] = body.data.registered;
    expect(entry).toMatchObject({ sn: 'GWJSON0001', generated: true });
    expect(entry?.key).toMatch(GATEWAY_KEY_PATTERN);
    const [row] = await server.database.db
      .select({ companyId: gateways.companyId, alias: gateways.alias, keyHash: gateways.keyHash })
      .from(gateways)
      .where(eq(gateways.sn, 'GWJSON0001'));
    expect(row).toMatchObject({ companyId: cast.companyId, alias: 'Roof east' });
    expect(row?.keyHash).not.toContain(entry?.key ?? '-');
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.telemetry.mqttPort}`, {
      clientId: 'GWJSON0001',
      username: 'GWJSON0001',
      password: entry?.key ?? '',
      reconnectPeriod: 0,
    });
    await client.endAsync();
    const logged = await server.database.db.select().from(operationLog).where(eq(operationLog.target, 'GWJSON0001'));
    expect(logged.map((l) => l.action)).toContain('gateway.register');
  });

  it('registers a list, keeps given keys, and answers each refused entry with its index and problem', async () => {
    const body = await post<GatewayRegisterResult>(
      '/api/v1/gateways',
      {
        gateways: [
          { sn: 'GWJSON0002', key: 'Factory-Key-2' },
          { sn: 'GWJSON0003' },
          { sn: 'GWJSON0001' },
          { sn: 'bad sn!' },
          { sn: 'GWJSON0004', key: 'has space' },
          { sn: 'gwjson0002' },
          { sn: 'GWJSON0005', alias: 'a'.repeat(40) },
        ],
      },
      cast.companyAdmin,
    );
    expect(body.code).toBe(0);
    expect(body.data.registered.map((r) => [r.sn, r.generated])).toEqual([
      ['GWJSON0002', false],
      ['GWJSON0003', true],
    ]);
    expect(body.data.registered[0]?.key).toBe('Factory-Key-2');
    expect(body.data.errors.map((e) => [e.index, e.problem])).toEqual([
      [2, 'alreadyRegistered'],
      [3, 'snInvalid'],
      [4, 'keyInvalid'],
      [5, 'duplicateInFile'],
      [6, 'aliasInvalid'],
    ]);
    expect(body.data.errors[0]?.message).toMatch(/already/i);
  });

  it('refuses a single bad gateway with its field, a taken SN with 301, and bad bodies with 4, changing nothing', async () => {
    const taken = await post('/api/v1/gateways', { sn: 'GWJSON0001' }, cast.companyAdmin);
    expect(taken.code).toBe(Code.GATEWAY_USED);
    const badKey = await post<unknown>('/api/v1/gateways', { sn: 'GWJSON0009', key: 'with space' }, cast.companyAdmin);
    expect(badKey.code).toBe(Code.VALIDATION);
    expect(JSON.stringify(badKey)).toMatch(/"field":"key"/);
    const german = await post<unknown>('/api/v1/gateways', { sn: 'x' }, { token: cast.companyAdmin, headers: { 'accept-language': 'de' } });
    expect(german.code).toBe(Code.VALIDATION);
    expect(german.message).not.toBe('');
    for (const bad of [{}, { gateways: [] }, { gateways: 'GW1' }, { sn: 12 }, { sn: 'GWJSON0010', extra: true }]) {
      expect((await post('/api/v1/gateways', bad, cast.companyAdmin)).code, JSON.stringify(bad)).toBe(Code.VALIDATION);
    }
    const tooMany = { gateways: Array.from({ length: 1001 }, (_, i) => ({ sn: `GWMANY${i}` })) };
    expect((await post('/api/v1/gateways', tooMany, cast.companyAdmin)).code).toBe(Code.VALIDATION);
    const rows = await server.database.db.select({ sn: gateways.sn }).from(gateways).where(eq(gateways.sn, 'GWJSON0009'));
    expect(rows).toEqual([]);
  });

  it('is for those who may import gateways', async () => {
    const body = await post('/api/v1/gateways', { sn: 'GWJSON0020' }, cast.guest);
    expect(body.code).not.toBe(0);
    expect((await post('/api/v1/gateways', { sn: 'GWJSON0020' })).code).not.toBe(0);
  });

  it('is in the API document with examples', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    const document = response.json() as { paths: Record<string, { post?: unknown }> };
    const operation = JSON.stringify(document.paths['/api/v1/gateways']?.post ?? {});
    expect(operation).toContain('GW1000001');
    expect(operation).toContain('3f9a0c12be7d4e65');
  });
});

describe('GET /api/v1/gateway/:id/refusals', () => {
  it("lists the gateway's refusals with their reason codes and counts the last 24 hours; a stranger gets 305", async () => {
    const registered = await post<GatewayRegisterResult>('/api/v1/gateways', { sn: 'GWREFUSE01' }, cast.companyAdmin);
    const gateway = registered.data.registered[0];
    if (!gateway) throw new Error('not registered');
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.telemetry.mqttPort}`, {
      clientId: gateway.sn,
      username: gateway.sn,
      password: gateway.key,
      reconnectPeriod: 0,
    });
    await client.subscribeAsync(gatewayRefusedTopic(gateway.sn, 'report'), { qos: 1 });
    await client.publishAsync(
      gatewayTopic(gateway.sn, 'report'),
      JSON.stringify({ v: 1, seq: 7, ts: Date.now(), devices: [{ sn: 'X1', proto: 'p' }] }),
      {
        qos: 1,
      },
    );
    await client.publishAsync(gatewayTopic(gateway.sn, 'reply'), JSON.stringify({ v: 1, id: 'abc' }), { qos: 1 });
    await client.endAsync();
    let refusals: GatewayRefusals | undefined;
    await vi.waitFor(
      async () => {
        refusals = (await get<GatewayRefusals>(`/api/v1/gateway/${gateway.id}/refusals`, cast.companyAdmin)).data;
        if ((refusals?.infos.length ?? 0) < 2) throw new Error('not logged yet');
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(refusals?.last24h).toBe(2);
    expect(refusals?.infos).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          of: 'report',
          reason: 'malformed_payload',
          detail: expect.stringMatching(/^devices\.0\.blocks/),
          count: 1,
        }),
        expect.objectContaining({ of: 'reply', reason: 'malformed_payload', detail: expect.stringMatching(/^status/) }),
      ]),
    );
    const other = await signedInCast(server, 'Other Co');
    expect((await get(`/api/v1/gateway/${gateway.id}/refusals`, other.companyAdmin)).code).toBe(Code.GATEWAY_NOT_FOUND);
  });
});
