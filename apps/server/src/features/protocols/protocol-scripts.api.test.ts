import { Code } from '@sunward/contracts/codes';
import { gatewayRefusedTopic, type ReportRefusalPayload as ReportRefusal } from '@sunward/contracts/gateway-protocol';
import type { GatewayRefusals } from '@sunward/contracts/gateways';
import type { ProtocolDetail, ProtocolSave, ProtocolScript, ProtocolScriptTestResult } from '@sunward/contracts/protocols';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, protocolScripts, readings } from '../../db/schema.js';
import { SCRIPT_LIMITS } from '../../ingest/protocol-scripts.js';
import { apiClient, createPlant, signedInCast } from '../../test/api.js';
import { call } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';

// Protocol scripts (issue 19): stored per protocol and configuration version, checked before they are
// stored, run by the ingest decoder in the QuickJS sandbox; a failing script refuses only its readings.

let server: TestServer;
let admin: string;
let companyAdmin: string;
let gateway: TestGateway;
let gatewayId = 0;
let protocolId = 0;
const refusals: ReportRefusal[] = [];

const { get, post, del } = apiClient(
  () => server.app,
  () => admin,
);
const put = async <T>(path: string, json: unknown) => (await call<T>(server.app, 'PUT', path, { token: admin, json })).body;

const brand: ProtocolSave = {
  identifier: 'brightco-m1',
  code: 'BRIGHT-M1',
  name: 'Bright M1',
  manufacturer: 'BrightCo',
  family: 'inverter',
  protocolVersion: '1.0',
  configurationVersion: 'C1',
  content: {
    title: { en: 'BrightCo M1 inverter', zh: 'BrightCo M1 逆变器' },
    source: 'BrightCo M1 register list',
    points: [
      {
        id: 'St',
        label: { en: 'State', zh: '状态' },
        functionCode: 4,
        address: 10,
        count: 1,
        type: 'u16',
        operation: 'r',
        role: 'operating_state',
      },
      {
        id: 'W',
        label: { en: 'Power', zh: '功率' },
        functionCode: 4,
        address: 11,
        count: 2,
        type: 'u32',
        unit: 'W',
        operation: 'r',
        role: 'power',
      },
      {
        id: 'TmpF',
        label: { en: 'Temperature', zh: '温度' },
        functionCode: 4,
        address: 13,
        count: 1,
        type: 's16',
        unit: '°C',
        operation: 'r',
      },
      {
        id: 'WH',
        label: { en: 'Yield', zh: '发电量' },
        functionCode: 4,
        address: 14,
        count: 2,
        type: 'u32',
        unit: 'Wh',
        operation: 'r',
        role: 'energy_total',
      },
    ],
    events: [],
  },
};

/** Fahrenheit to Celsius, state derived from the raw register, and two ways to fail on chosen powers. */
const GOOD = `function transform(input) {
  if (input.points.W === 99999) { for (;;) {} }
  if (input.points.W === 77777) throw new Error('meter offline');
  return { TmpF: Math.round((input.points.TmpF - 32) / 1.8 * 10) / 10, St: input.input['10'] === 4 ? 5 : input.points.St };
}`;

function refusedSource(answer: { code: number; data: unknown }): string {
  expect(answer.code).toBe(Code.VALIDATION);
  const errors = (answer.data as { errors: { field: string; message: string }[] }).errors;
  expect(errors.map((e) => e.field)).toEqual(['source']);
  return errors[0]?.message ?? '';
}

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`waited in vain for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function storedReadings(sn: string) {
  const [device] = await server.database.db.select().from(devices).where(eq(devices.sn, sn));
  if (!device) return [];
  return server.database.db.select().from(readings).where(eq(readings.deviceId, device.id)).orderBy(asc(readings.ts));
}

beforeAll(async () => {
  server = await startTestServer();
  ({ admin, companyAdmin } = await signedInCast(server, 'Script Test Company'));
  const created = await post<ProtocolDetail>('/api/v1/protocols', brand);
  expect(created.code).toBe(0);
  protocolId = created.data.id;
  const plant = await createPlant(server, admin);
  gatewayId = plant.gateway.id;
  gateway = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
  await gateway.client.subscribeAsync(gatewayRefusedTopic(plant.gateway.sn, 'report'), { qos: 1 });
  gateway.client.on('message', (_topic, payload) => refusals.push(JSON.parse(payload.toString('utf8')) as ReportRefusal));
});
afterAll(async () => {
  await gateway?.client.endAsync(true);
  await server?.close();
});

describe('storing a script', () => {
  it('refuses bad sources naming the field, and stores nothing', async () => {
    const path = `/api/v1/protocols/${protocolId}/scripts`;
    const add = (source: string) => post(path, { configurationVersion: 'C1', source });
    expect(refusedSource(await add('function transform(input) {\n  return { W: input.points.W + };\n}'))).toMatch(
      /^The script does not run: transform: SyntaxError: .*\(line 2\)$/,
    );
    expect(refusedSource(await add('function transform() { for (;;) {} }'))).toContain(`ran over ${SCRIPT_LIMITS.timeMs} ms`);
    expect(refusedSource(await add('function transform() { const a = []; for (;;) a.push({ n: a.length }); }'))).toMatch(
      /ran over|ran out of memory/,
    );
    expect(refusedSource(await add("function transform() { return { 'x'.repeat(1e9) }; }"))).toContain('SyntaxError');
    expect(refusedSource(await add("function transform() { return { n: 'x'.repeat(1e9).length }; }"))).toContain('ran out of memory');
    expect(refusedSource(await add('function transform() { return { Nope: 1 }; }'))).toContain('the protocol has no numeric point Nope');
    expect(refusedSource(await add('const transform = 5;'))).toContain('no function transform(input)');
    expect(await server.database.db.select().from(protocolScripts)).toEqual([]);
  });

  it('refuses a company administrator (platform administrators only)', async () => {
    const answer = (
      await call(server.app, 'POST', `/api/v1/protocols/${protocolId}/scripts`, {
        token: companyAdmin,
        json: { configurationVersion: 'C1', source: GOOD },
      })
    ).body;
    expect(answer.code).toBe(Code.NO_PERMISSION);
  });

  it('adds one script per configuration version (a second is refused, 4207)', async () => {
    const added = await post<ProtocolScript>(`/api/v1/protocols/${protocolId}/scripts`, { configurationVersion: 'C1', source: GOOD });
    expect(added.code).toBe(0);
    expect(added.data).toMatchObject({ configurationVersion: 'C1', language: 'javascript', active: true });
    const again = await post(`/api/v1/protocols/${protocolId}/scripts`, { configurationVersion: 'C1', source: GOOD });
    expect(again.code).toBe(Code.PROTOCOL_SCRIPT_EXISTS);
    const list = await get<ProtocolScript[]>(`/api/v1/protocols/${protocolId}/scripts`);
    expect(list.data.map((s) => s.source)).toEqual([GOOD]);
    // A broken edit changes nothing.
    refusedSource(await put(`/api/v1/protocols/${protocolId}/scripts/${added.data.id}`, { source: 'function transform( {' }));
    expect((await get<ProtocolScript[]>(`/api/v1/protocols/${protocolId}/scripts`)).data[0]?.source).toBe(GOOD);
  });
});

describe('the test console', () => {
  it('decodes typed registers and runs the source on them, showing the error when it fails', async () => {
    // St=4, W=2500 (u32), TmpF=122 °F, WH=0.
    const blocks = [{ fc: 4, addr: 10, hex: '0004 0000 09C4 007A' }];
    const ran = await post<ProtocolScriptTestResult>(`/api/v1/protocols/${protocolId}/scripts/test`, { source: GOOD, blocks });
    expect(ran.code).toBe(0);
    expect(ran.data.error).toBeNull();
    expect(ran.data.points).toEqual([
      { id: 'St', unit: null, decoded: 4, output: 5 },
      { id: 'W', unit: 'W', decoded: 2500, output: 2500 },
      { id: 'TmpF', unit: '°C', decoded: 122, output: 50 },
    ]);
    const looping = await post<ProtocolScriptTestResult>(`/api/v1/protocols/${protocolId}/scripts/test`, {
      source: 'function transform() { while (true) {} }',
      blocks,
    });
    expect(looping.data.error).toContain('ran over');
    expect(looping.data.points.find((p) => p.id === 'TmpF')).toEqual({ id: 'TmpF', unit: '°C', decoded: 122, output: 122 });
    const badHex = await post(`/api/v1/protocols/${protocolId}/scripts/test`, { source: GOOD, blocks: [{ fc: 4, addr: 10, hex: '12' }] });
    expect(badHex.code).toBe(Code.VALIDATION);
  });
});

describe('ingest runs the script', () => {
  it('stores the transformed values of a device on that configuration version', async () => {
    await gateway.report(Date.now() - 120_000, [
      { sn: 'BRIGHT0001', proto: 'brightco-m1', values: { St: 2, W: 4321, TmpF: 212, WH: 1000 } },
    ]);
    const [reading] = await until(async () => {
      const rows = await storedReadings('BRIGHT0001');
      return rows.length > 0 ? rows : undefined;
    }, 'the first reading');
    // Storage order: St, W, TmpF, WH.
    expect(reading?.values).toEqual([2, 4321, 100, 1000]);
  });

  it('refuses the readings when the script overruns or throws, names the reason, and keeps ingesting', async () => {
    const now = Date.now();
    await gateway.report(now - 90_000, [{ sn: 'BRIGHT0001', proto: 'brightco-m1', values: { W: 99999, TmpF: 50 } }]);
    await gateway.report(now - 60_000, [{ sn: 'BRIGHT0001', proto: 'brightco-m1', values: { W: 77777, TmpF: 50 } }]);
    await gateway.report(now - 30_000, [{ sn: 'BRIGHT0001', proto: 'brightco-m1', values: { W: 5000, TmpF: 50 } }]);
    const answered = await until(async () => (refusals.length >= 2 ? refusals : undefined), 'two refusals');
    expect(answered.map((r) => [r.reason, r.device, r.detail])).toEqual([
      ['script_failed', 'BRIGHT0001', `transform: InternalError: ran over ${SCRIPT_LIMITS.timeMs} ms (line 2)`],
      ['script_failed', 'BRIGHT0001', 'transform: Error: meter offline (line 3)'],
    ]);
    const stored = await until(async () => {
      const rows = await storedReadings('BRIGHT0001');
      return rows.length >= 2 ? rows : undefined;
    }, 'the reading after the refusals');
    expect(stored.map((r) => r.values[1])).toEqual([4321, 5000]);
    // The gateway's refusals (the console's refusals drawer) name the script's failure.
    const listed = await until(async () => {
      const answer = await get<GatewayRefusals>(`/api/v1/gateway/${gatewayId}/refusals`);
      return answer.data.infos.length >= 2 ? answer.data : undefined;
    }, 'the refusals in the communication log');
    expect(listed.infos.map((r) => r.reason)).toEqual(['script_failed', 'script_failed']);
  });

  it('stops running a deleted script', async () => {
    const [script] = (await get<ProtocolScript[]>(`/api/v1/protocols/${protocolId}/scripts`)).data;
    expect((await del(`/api/v1/protocols/${protocolId}/scripts/${script?.id}`)).code).toBe(0);
    await gateway.report(Date.now() - 10_000, [{ sn: 'BRIGHT0001', proto: 'brightco-m1', values: { W: 6000, TmpF: 212 } }]);
    const stored = await until(async () => {
      const rows = await storedReadings('BRIGHT0001');
      return rows.length >= 3 ? rows : undefined;
    }, 'the reading without the script');
    expect(stored.map((r) => r.values[2])).toEqual([100, 10, 212]);
  });
});
