import { readFileSync } from 'node:fs';
import { Code } from '@sunward/contracts/codes';
import type { ProtocolDetail, ProtocolPage, ProtocolSave, ProtocolVersionRow } from '@sunward/contracts/protocols';
import { SUNSPEC_WEATHER_STATION } from '@sunward/protocol/maps/index';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceEvents, deviceRealtime, devices, protocols, protocolVersions, readings } from '../../db/schema.js';
import { apiClient, createPlant, signedInCast } from '../../test/api.js';
import { call } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';
import { contentOfMap, storageOrderAfter } from './protocol-definition.js';
import { createProtocolStore } from './protocol-store.js';
import { createProtocolsRepository } from './protocols.repository.js';

let server: TestServer;
let admin: string;
let companyAdmin: string;
let gateway: TestGateway | undefined;

beforeAll(async () => {
  server = await startTestServer();
  ({ admin, companyAdmin } = await signedInCast(server, 'Protocol Test Company'));
});
afterAll(async () => {
  await gateway?.close();
  await server?.close();
});
const { get, post, del } = apiClient(
  () => server.app,
  () => admin,
);
const put = async <T>(path: string, json: unknown, token = admin) => (await call<T>(server.app, 'PUT', path, { token, json })).body;

/** A new brand's heat-pump-like inverter, as an administrator would type it in the register editor. */
function acme(overrides: Partial<ProtocolSave> = {}): ProtocolSave {
  return {
    identifier: 'acme-inv-x1',
    code: 'ACME-X1',
    name: 'ACME X1 inv',
    manufacturer: 'Acme Solar',
    family: 'inverter',
    protocolVersion: '2.1',
    configurationVersion: '1',
    content: {
      title: { en: 'Acme X1 string inverter', zh: 'Acme X1 组串逆变器' },
      source: 'Acme X1 Modbus manual, rev. 3',
      points: [
        {
          id: 'St',
          label: { en: 'State', zh: '状态' },
          functionCode: 4,
          address: 100,
          count: 1,
          type: 'u16',
          operation: 'r',
          role: 'operating_state',
        },
        {
          id: 'W',
          label: { en: 'Active power', zh: '有功功率' },
          functionCode: 4,
          address: 101,
          count: 2,
          type: 'u32',
          unit: 'W',
          operation: 'r',
          role: 'power',
          required: true,
        },
        {
          id: 'WH',
          label: { en: 'Total yield', zh: '累计发电量' },
          functionCode: 4,
          address: 103,
          count: 2,
          type: 'u32',
          unit: 'Wh',
          scale: 100,
          wordSwap: true,
          operation: 'r',
          role: 'energy_total',
        },
        {
          id: 'TmpCab',
          label: { en: 'Cabinet temperature', zh: '机箱温度' },
          functionCode: 4,
          address: 105,
          count: 1,
          type: 's16',
          unit: '°C',
          scale: 0.1,
          operation: 'r',
        },
        {
          id: 'Evt',
          label: { en: 'Alarms', zh: '告警' },
          functionCode: 4,
          address: 106,
          count: 1,
          type: 'bits16',
          operation: 'r',
          role: 'event_bits',
        },
        {
          id: 'WMaxLimPct',
          label: { en: 'Power limit', zh: '功率限制' },
          functionCode: 3,
          address: 200,
          count: 1,
          type: 'u16',
          unit: '%',
          operation: 'rw',
          min: 0,
          max: 100,
        },
      ],
      events: [
        {
          point: 'Evt',
          bit: 2,
          code: 7702,
          level: 'fault',
          description: { en: 'Fan failure', zh: '风扇故障' },
          solution: { en: 'Replace the fan', zh: '更换风扇' },
        },
      ],
    },
    ...overrides,
  };
}

function refusedField(answer: { code: number; data: unknown }, field: string): string {
  expect(answer.code).toBe(Code.VALIDATION);
  const errors = (answer.data as { errors: { field: string; message: string }[] }).errors;
  expect(errors.map((e) => e.field)).toContain(field);
  return errors.find((e) => e.field === field)?.message ?? '';
}

let acmeId = 0;

describe('the shipped maps as seed data', () => {
  it('lists the twelve shipped protocols, each at version 1, searchable', async () => {
    const page = await get<ProtocolPage>('/api/v1/protocols?size=100');
    expect(page.code).toBe(0);
    expect(page.data.infos.filter((p) => p.builtIn)).toHaveLength(12);
    const inverter = page.data.infos.find((p) => p.identifier === 'sunspec-inverter-3p');
    expect(inverter).toMatchObject({ currentVersion: 1, enabled: true, family: 'inverter', name: 'INVERTER-3P' });
    expect(inverter?.registers).toBeGreaterThan(20);
    const found = await get<ProtocolPage>('/api/v1/protocols?keyword=heat');
    expect(found.data.infos.map((p) => p.identifier)).toEqual(['vendor-heat-pump']);
  });

  it('refuses a shipped protocol’s deletion (4203)', async () => {
    const page = await get<ProtocolPage>('/api/v1/protocols?keyword=sunspec-meter-3p');
    const id = page.data.infos[0]?.id ?? 0;
    expect((await del(`/api/v1/protocols/${id}`)).code).toBe(Code.PROTOCOL_BUILT_IN);
  });
});

describe('who may manage protocols', () => {
  it('refuses a company administrator reading or writing (spec 02 §6)', async () => {
    expect((await get('/api/v1/protocols', companyAdmin)).code).toBe(Code.NO_PERMISSION);
    expect((await post('/api/v1/protocols', acme(), companyAdmin)).code).toBe(Code.NO_PERMISSION);
  });
});

describe('creating and checking a protocol', () => {
  it('refuses overlapping registers naming the field and the other register', async () => {
    const draft = acme();
    const points = draft.content.points.map((p) => (p.id === 'TmpCab' ? { ...p, address: 104 } : p));
    const message = refusedField(
      await post('/api/v1/protocols', { ...draft, content: { ...draft.content, points } }),
      'content.points.3.address',
    );
    expect(message).toContain('WH');
  });

  it('refuses an unknown data type, a wrong width and a name outside 6-12 characters, naming each field', async () => {
    const draft = acme();
    const bad = draft.content.points.map((p, i) => (i === 3 ? { ...p, type: 'float128' } : p));
    refusedField(await post('/api/v1/protocols', { ...draft, content: { ...draft.content, points: bad } }), 'content.points.3.type');
    const wide = draft.content.points.map((p, i) => (i === 1 ? { ...p, count: 1 } : p));
    refusedField(await post('/api/v1/protocols', { ...draft, content: { ...draft.content, points: wide } }), 'content.points.1.count');
    refusedField(await post('/api/v1/protocols', acme({ name: 'ACME' })), 'name');
    refusedField(await post('/api/v1/protocols', acme({ name: 'ACME X1 inverter' })), 'name');
    expect((await get<ProtocolPage>('/api/v1/protocols?keyword=acme')).data.total).toBe(0);
  });

  it('creates the protocol with its first version', async () => {
    const answer = await post<ProtocolDetail>('/api/v1/protocols', acme());
    expect(answer.code).toBe(0);
    expect(answer.data).toMatchObject({ identifier: 'acme-inv-x1', currentVersion: 1, registers: 6, builtIn: false, enabled: true });
    acmeId = answer.data.id;
  });

  it('keeps identifier and code unique (4200, 4201, the code regardless of case)', async () => {
    expect((await post('/api/v1/protocols', acme({ code: 'OTHER' }))).code).toBe(Code.PROTOCOL_IDENTIFIER_EXISTS);
    expect((await post('/api/v1/protocols', acme({ identifier: 'acme-inv-x2', code: 'acme-x1' }))).code).toBe(Code.PROTOCOL_CODE_EXISTS);
  });
});

describe('a device of the new brand reports', () => {
  it('is discovered and decoded with the protocol created through the API', async () => {
    const plant = await createPlant(server, admin);
    gateway = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
    await gateway.report(Date.now() - 60_000, [
      { sn: 'ACME000001', proto: 'acme-inv-x1', values: { W: 4321, WH: 1_234_500, TmpCab: 41.5, Evt: 4, St: 2 } },
    ]);
    const [device] = await server.database.db.select().from(devices).where(eq(devices.sn, 'ACME000001'));
    expect(device).toMatchObject({ protocolId: 'acme-inv-x1', family: 'inverter', protocolVersion: 1, plantId: plant.id });
    const [realtime] = await server.database.db
      .select()
      .from(deviceRealtime)
      .where(eq(deviceRealtime.deviceId, device?.id ?? 0));
    expect(realtime).toMatchObject({ powerW: 4321, energyTotalWh: 1_234_500 });
    const [reading] = await server.database.db
      .select()
      .from(readings)
      .where(eq(readings.deviceId, device?.id ?? 0));
    // Storage order: St, W, WH, TmpCab, Evt, WMaxLimPct.
    expect(reading?.values.slice(0, 5)).toEqual([2, 4321, 1_234_500, 41.5, 4]);
    const events = await server.database.db
      .select()
      .from(deviceEvents)
      .where(eq(deviceEvents.deviceId, device?.id ?? 0));
    expect(events.map((e) => e.code)).toEqual([7702]);
  });

  it('refuses deleting the protocol while the device uses it (4202, with the count)', async () => {
    const answer = await del(`/api/v1/protocols/${acmeId}`);
    expect(answer.code).toBe(Code.PROTOCOL_IN_USE);
    expect(answer.message).toContain('1');
  });
});

describe('editing creates versions', () => {
  it('saves an edit as version 2, decoding from the next report on, and keeps version 1 readable', async () => {
    const draft = acme({ baseVersion: 1, note: 'Temperature in whole degrees; grid frequency added' });
    const points = [
      ...draft.content.points.map((p) => (p.id === 'TmpCab' ? { ...p, scale: 1 } : p)),
      {
        id: 'Hz',
        label: { en: 'Grid frequency', zh: '电网频率' },
        functionCode: 4 as const,
        address: 107,
        count: 1,
        type: 'u16' as const,
        unit: 'Hz',
        scale: 0.01,
        operation: 'r' as const,
      },
    ];
    const answer = await put<ProtocolDetail>(`/api/v1/protocols/${acmeId}`, { ...draft, content: { ...draft.content, points } });
    expect(answer.code).toBe(0);
    expect(answer.data.currentVersion).toBe(2);
    const versions = await get<ProtocolVersionRow[]>(`/api/v1/protocols/${acmeId}/versions`);
    expect(versions.data.map((v) => [v.version, v.registers])).toEqual([
      [2, 7],
      [1, 6],
    ]);
    const first = await get<{ content: ProtocolSave['content'] }>(`/api/v1/protocols/${acmeId}/versions/1`);
    expect(first.data.content.points.find((p) => p.id === 'TmpCab')?.scale).toBe(0.1);
    const [device] = await server.database.db.select().from(devices).where(eq(devices.sn, 'ACME000001'));
    expect(device?.protocolVersion).toBe(2);

    await gateway?.report(Date.now() - 30_000, [
      { sn: 'ACME000001', proto: 'acme-inv-x1', values: { W: 1000, WH: 1_234_600, TmpCab: 42, Evt: 0, St: 2, Hz: 50.02 } },
    ]);
    const rows = await server.database.db
      .select()
      .from(readings)
      .where(eq(readings.deviceId, device?.id ?? 0))
      .orderBy(readings.ts);
    expect(rows).toHaveLength(2);
    // The new point is appended: older readings keep their positions.
    expect(rows[1]?.values.slice(0, 7)).toEqual([2, 1000, 1_234_600, 42, 0, 80, 50.02]);
  });

  it('refuses a save over a version saved since (4205)', async () => {
    expect((await put(`/api/v1/protocols/${acmeId}`, acme({ baseVersion: 1 }))).code).toBe(Code.PROTOCOL_VERSION_STALE);
  });

  it('disables and enables the protocol', async () => {
    expect((await put(`/api/v1/protocols/${acmeId}/enabled`, { enabled: false })).code).toBe(0);
    expect((await get<ProtocolDetail>(`/api/v1/protocols/${acmeId}`)).data.enabled).toBe(false);
    expect((await put(`/api/v1/protocols/${acmeId}/enabled`, { enabled: true })).code).toBe(0);
  });
});

describe('files', () => {
  it('exports a protocol and imports it back as a new protocol under another identifier', async () => {
    const exported = await get<{ fileName: string; file: { protocol: ProtocolSave } }>(`/api/v1/protocols/${acmeId}/export`);
    expect(exported.data.fileName).toBe('protocol-acme-inv-x1-v2.json');
    const file = { ...exported.data.file, protocol: { ...exported.data.file.protocol, identifier: 'acme-inv-x1b', code: 'ACME-X1B' } };
    const imported = await post<ProtocolDetail>('/api/v1/protocols/import', file);
    expect(imported.code).toBe(0);
    expect(imported.data).toMatchObject({ identifier: 'acme-inv-x1b', registers: 7, currentVersion: 1 });
    expect((await del(`/api/v1/protocols/${imported.data.id}`)).code).toBe(0);
  });

  it('refuses a file over 10 MB (4204) and a file that is no protocol (4206)', async () => {
    const huge = { format: 'sunward-protocol', padding: 'x'.repeat(10 * 1024 * 1024 + 10) };
    expect((await post('/api/v1/protocols/import', huge)).code).toBe(Code.PROTOCOL_IMPORT_TOO_LARGE);
    expect((await post('/api/v1/protocols/import', { hello: 'world' })).code).toBe(Code.PROTOCOL_FILE_INVALID);
  });

  it('turns SunSpec model 103 into a draft that passes the checks', async () => {
    // A copy of the SunSpec Alliance's model 103 (Apache-2.0, see packages/protocol/src/NOTICE.md).
    const model = JSON.parse(readFileSync(new URL('./sunspec-model-103.fixture.json', import.meta.url), 'utf8')) as unknown;
    const answer = await post<{ draft: ProtocolSave; skipped: string[] }>('/api/v1/protocols/import/sunspec?start=40002', model);
    expect(answer.code).toBe(0);
    const w = answer.data.draft.content.points.find((p) => p.id === 'W');
    expect(w).toMatchObject({ address: 40002 + 14, type: 's16', scaleFactorPoint: 'W_SF', role: 'power' });
    const saved = await post<ProtocolDetail>('/api/v1/protocols', answer.data.draft);
    expect(saved.code).toBe(0);
    expect((await del(`/api/v1/protocols/${saved.data.id}`)).code).toBe(0);
  });
});

describe('a database seeded before a release changed a shipped map', () => {
  it('stores the shipped map as a new version on start, once; the old version and its readings stay as they were', async () => {
    const db = server.database.db;
    const repository = createProtocolsRepository(db);
    const store = () => createProtocolStore({ repository, log: server.app.log });
    // The weather map as an older release shipped it: no module temperature yet, version 0.9.0.
    const shipped = contentOfMap(SUNSPEC_WEATHER_STATION);
    const older = { ...shipped, points: shipped.points.filter((p) => p.id !== 'TmpBOM') };
    const [row] = await db.select().from(protocols).where(eq(protocols.identifier, SUNSPEC_WEATHER_STATION.id));
    const id = row?.id ?? 0;
    await db
      .update(protocolVersions)
      .set({ protocolVersion: '0.9.0', definition: { ...older, storageOrder: storageOrderAfter(undefined, older) } })
      .where(eq(protocolVersions.protocolId, id));
    await store().reload();
    const plant = await createPlant(server, admin);
    const station = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
    try {
      await station.report(Date.now() - 120_000, [{ sn: 'WSOLD00001', proto: SUNSPEC_WEATHER_STATION.id, values: { GHI: 640 } }]);
      const [device] = await db.select().from(devices).where(eq(devices.sn, 'WSOLD00001'));
      expect(device?.protocolVersion).toBe(1);
      const before = await db
        .select()
        .from(readings)
        .where(eq(readings.deviceId, device?.id ?? 0));

      // The next start (this release) finds the shipped map in no stored version: version 2, current.
      const started = store();
      await started.start();
      started.stop();
      const versions = await get<ProtocolVersionRow[]>(`/api/v1/protocols/${id}/versions`);
      expect(versions.data.map((v) => [v.version, v.protocolVersion, v.creator])).toEqual([
        [2, SUNSPEC_WEATHER_STATION.version, null],
        [1, '0.9.0', null],
      ]);
      const first = await get<{ content: ProtocolSave['content'] }>(`/api/v1/protocols/${id}/versions/1`);
      expect(first.data.content.points.some((p) => p.id === 'TmpBOM')).toBe(false);
      const second = await get<{ content: ProtocolSave['content'] }>(`/api/v1/protocols/${id}/versions/2`);
      expect(second.data.content.points.map((p) => p.id)).toEqual(shipped.points.map((p) => p.id));
      const [updated] = await db.select().from(devices).where(eq(devices.sn, 'WSOLD00001'));
      expect(updated?.protocolVersion).toBe(2);
      // The other shipped maps are as stored: no new version for them.
      const builtIns = (await get<ProtocolPage>('/api/v1/protocols?size=100')).data.infos.filter((p) => p.builtIn);
      expect(builtIns.filter((p) => p.currentVersion !== 1).map((p) => p.identifier)).toEqual([SUNSPEC_WEATHER_STATION.id]);
      // A second start changes nothing.
      const again = store();
      await again.start();
      again.stop();
      expect((await get<ProtocolVersionRow[]>(`/api/v1/protocols/${id}/versions`)).data).toHaveLength(2);

      // The reading decoded by version 1 reads the same; the next report decodes the new point, appended.
      await station.report(Date.now() - 60_000, [
        { sn: 'WSOLD00001', proto: SUNSPEC_WEATHER_STATION.id, values: { GHI: 650, TmpBOM: 31.5 } },
      ]);
      const after = await db
        .select()
        .from(readings)
        .where(eq(readings.deviceId, device?.id ?? 0))
        .orderBy(readings.ts);
      expect(after[0]?.values).toEqual(before[0]?.values);
      const order = storageOrderAfter(storageOrderAfter(undefined, older), shipped);
      expect(order.at(-1)).toBe('TmpBOM');
      expect(after[1]?.values[order.indexOf('TmpBOM')]).toBe(31.5);
      expect(after[1]?.values[order.indexOf('GHI')]).toBe(650);
    } finally {
      await station.close();
    }
  });
});
