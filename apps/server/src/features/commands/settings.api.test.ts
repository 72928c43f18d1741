import { Code } from '@sunward/contracts/codes';
import { type CommandResult, SETTINGS_FAMILIES, type SettingsDeviceRow, type WritableParam } from '@sunward/contracts/commands';
import { DeviceStatus } from '@sunward/contracts/device-status';
import { type CommandPayload, gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { ProtocolSave } from '@sunward/contracts/protocols';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../db/schema.js';
import { apiClient, createPlant, signedInCast } from '../../test/api.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';

// Issue 19: every settings family answers for the models whose protocol has the group, 601 elsewhere; the
// setting pages' list; writes checked, confirmed by the device, refused offline. The test plays the gateway
// (the browser tests drive the real simulator).
let server: TestServer;
let admin: string;
let companyAdmin: string;
let guest: string;
let gateway: TestGateway;
/** What the played gateway answers to a write: the values it took (a device may take another value). */
let answer: (params: Record<string, number>) => Record<string, number> = (params) => params;

const { get, post } = apiClient(
  () => server.app,
  () => admin,
);
const key = () => `s-${Math.random().toString(36).slice(2)}`;

const SN = {
  inverter: 'STINV00001',
  hybrid: 'STHYB00001',
  bms: 'STBMS00001',
  heatPump: 'STHTP00001',
  acSwitch: 'STSWI00001',
  meter: 'STMTR00001',
  vendor: 'STVND00001',
};

/** A brand's protocol as an administrator creates it in the console, with groups for the five vendor families. */
function vendorProtocol(): ProtocolSave {
  const point = (id: string, address: number, extra: { operation: 'r' | 'rw' } & Record<string, unknown>) => ({
    id,
    label: { en: id, zh: id },
    functionCode: 3 as const,
    address,
    count: 1,
    type: 'u16' as const,
    ...extra,
  });
  return {
    identifier: 'brandx-hybrid',
    code: 'BRANDX-H1',
    name: 'BrandX H1',
    manufacturer: 'BrandX',
    family: 'hybrid_inverter',
    protocolVersion: '1.0',
    configurationVersion: '1',
    content: {
      title: { en: 'BrandX single-phase hybrid', zh: 'BrandX 单相储能逆变器' },
      source: 'BrandX Modbus manual',
      points: [
        point('St', 0, { operation: 'r', role: 'operating_state' }),
        point('W', 1, { operation: 'r', unit: 'W', role: 'power', required: true }),
        point('PLim', 10, { operation: 'rw', unit: '%', min: 0, max: 100 }),
        point('ChgA', 11, { operation: 'rw', unit: 'A', min: 0, max: 50 }),
        point('Mode', 12, {
          operation: 'rw',
          min: 0,
          max: 2,
          enumeration: { 0: { en: 'Self use', zh: '自发自用' }, 1: { en: 'Backup', zh: '备电' }, 2: { en: 'Export', zh: '馈网' } },
        }),
      ],
      events: [],
      settingsFamilies: {
        asw: ['PLim'],
        'setting/uneet': ['PLim', 'Mode'],
        'setting/sidaoer': ['Mode'],
        thinkPower: ['PLim'],
        'dy/store/single': ['Mode', 'ChgA'],
      },
    },
  };
}

/** Which device answers which family, and the form's points in the group's order. */
const FORMS: Record<(typeof SETTINGS_FAMILIES)[number], { sn: string; ids: string[] }> = {
  'mt/setting': { sn: SN.heatPump, ids: ['Mode', 'SetTmp', 'TankSetTmp'] },
  'gy/setting': { sn: SN.bms, ids: ['SoCRsvMin', 'SocRsvMax', 'SetOp'] },
  'dy/store/single': { sn: SN.vendor, ids: ['Mode', 'ChgA'] },
  'dy/store/threePhase': { sn: SN.hybrid, ids: ['WorkMode', 'SoCRsvMin', 'SocRsvMax', 'BatChaWMax', 'BatDisWMax'] },
  'dy/grid': { sn: SN.inverter, ids: ['WMaxLim_Ena', 'WMaxLimPct', 'OutPFSet_Ena', 'OutPFSet'] },
  asw: { sn: SN.vendor, ids: ['PLim'] },
  'setting/uneet': { sn: SN.vendor, ids: ['PLim', 'Mode'] },
  'setting/sidaoer': { sn: SN.vendor, ids: ['Mode'] },
  thinkPower: { sn: SN.vendor, ids: ['PLim'] },
  'setting/switch': {
    sn: SN.acSwitch,
    ids: [
      'WLim',
      'WLimRcl',
      'ALim',
      'ALimRcl',
      'VLimHi',
      'VLimHiRcl',
      'VLimLo',
      'VLimLoRcl',
      'LeakLim',
      'LeakLimRcl',
      'TmpLim',
      'TmpLimRcl',
    ],
  },
};

beforeAll(async () => {
  server = await startTestServer({ COMMAND_TIMEOUT_S: '3' });
  ({ admin, companyAdmin, guest } = await signedInCast(server, 'Settings Test Company'));
  const created = await post('/api/v1/protocols', vendorProtocol());
  expect(created.code, JSON.stringify(created)).toBe(0);
  const plant = await createPlant(server, admin);
  gateway = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
  // The played gateway answers writes over the real protocol, with the values its device then holds.
  await gateway.client.subscribeAsync(gatewayTopic(plant.gateway.sn, 'cmd'), { qos: 1 });
  gateway.client.on('message', (_topic, raw) => {
    const command = JSON.parse(raw.toString()) as CommandPayload;
    const reply = { v: 1, id: command.id, status: 'ok', values: answer(command.params ?? {}) };
    void gateway.client.publishAsync(gatewayTopic(plant.gateway.sn, 'reply'), JSON.stringify(reply), { qos: 1 });
  });
  await gateway.report(Date.now(), [
    { sn: SN.inverter, proto: 'sunspec-inverter-3p', values: { St: 4, WMaxLimPct: 100 } },
    { sn: SN.hybrid, proto: 'sunspec-hybrid-hv', values: { St: 4, SoCRsvMin: 15 } },
    { sn: SN.bms, proto: 'sunspec-battery-bms', values: {} },
    { sn: SN.heatPump, proto: 'vendor-heat-pump', values: { Mode: 1 } },
    { sn: SN.acSwitch, proto: 'vendor-ac-switch', values: {} },
    { sn: SN.meter, proto: 'sunspec-meter-3p', values: {} },
    { sn: SN.vendor, proto: 'brandx-hybrid', values: { St: 1, W: 800, PLim: 90, ChgA: 20, Mode: 0 } },
  ]);
  await server.telemetry.pipeline.drain();
});

afterAll(async () => {
  await gateway?.close();
  await server?.close();
});

describe('the ten settings families', () => {
  it('each answers the form of a model whose protocol has the group, with the protocol’s limits and the reported values', async () => {
    for (const family of SETTINGS_FAMILIES) {
      const form = await get<WritableParam[]>(`/api/v1/${family}?sn=${FORMS[family].sn}`);
      expect(form.code, family).toBe(0);
      expect(
        form.data.map((p) => p.id),
        family,
      ).toEqual(FORMS[family].ids);
    }
    const grid = await get<WritableParam[]>(`/api/v1/dy/grid?sn=${SN.inverter}`);
    expect(grid.data.find((p) => p.id === 'WMaxLimPct')).toMatchObject({ min: 0, max: 100, unit: '%', value: 100 });
    expect(grid.data.find((p) => p.id === 'OutPFSet')).toMatchObject({ min: 0.8, max: 1 });
    const modes = await get<WritableParam[]>(`/api/v1/mt/setting?sn=${SN.heatPump}`);
    expect(modes.data[0]).toMatchObject({ id: 'Mode', value: 1 });
    expect(modes.data[0]?.options?.map((o) => o.label)).toEqual(['Standby', 'Heating', 'Cooling', 'Hot water', 'Automatic']);
    const storage = await get<WritableParam[]>(`/api/v1/dy/store/single?sn=${SN.vendor}`);
    expect(storage.data.find((p) => p.id === 'ChgA')).toMatchObject({ min: 0, max: 50, unit: 'A', value: 20 });
  });

  it('answers 601 where the model has no such group, for reads and writes alike', async () => {
    for (const family of SETTINGS_FAMILIES)
      expect((await get(`/api/v1/${family}?sn=${SN.meter}`)).code, family).toBe(Code.SETTING_NOT_SUPPORTED);
    expect((await get(`/api/v1/dy/store/threePhase?sn=${SN.inverter}`)).code).toBe(Code.SETTING_NOT_SUPPORTED);
    expect((await get(`/api/v1/asw?sn=${SN.inverter}`)).code).toBe(Code.SETTING_NOT_SUPPORTED);
    expect(
      (await post('/api/v1/mt/setting', { sn: SN.inverter, values: { WMaxLimPct: 50 }, idempotencyKey: key(), password: ADMIN.password }))
        .code,
    ).toBe(Code.SETTING_NOT_SUPPORTED);
  });

  it('tells a device’s support which families its protocol carries', async () => {
    const support = await get<{ families: string[] }>(`/api/v1/setting/${SN.hybrid}/support`);
    expect(support.data.families).toEqual(['dy/store/threePhase', 'dy/grid']);
  });
});

describe('writing a family', () => {
  it('needs the password, checks the group’s points and limits, and answers what the device confirmed', async () => {
    const body = { sn: SN.inverter, values: { WMaxLimPct: 60 }, idempotencyKey: key() };
    expect((await post('/api/v1/dy/grid', body)).code).toBe(Code.CONFIRM_PASSWORD_WRONG);
    const outside = await post<{ errors: { field: string }[] }>('/api/v1/dy/grid', {
      ...body,
      idempotencyKey: key(),
      values: { WMaxLimPct: 120 },
      password: ADMIN.password,
    });
    expect(outside.code).toBe(Code.VALIDATION);
    expect(outside.data.errors.map((e) => e.field)).toEqual(['values.WMaxLimPct']);
    // A point of the device outside the family's group is not written through it.
    const foreign = await post('/api/v1/dy/grid', { ...body, idempotencyKey: key(), values: { Conn: 0 }, password: ADMIN.password });
    expect(foreign.code).toBe(Code.VALIDATION);
    const written = await post<CommandResult>('/api/v1/dy/grid', { ...body, password: ADMIN.password });
    expect(written).toMatchObject({ code: 0, data: { status: 'ok', values: { WMaxLimPct: 60 }, message: null } });
  });

  it('says which values the device did not take', async () => {
    answer = (params) => ({ ...params, Mode: 0 });
    try {
      const written = await post<CommandResult>('/api/v1/mt/setting', {
        sn: SN.heatPump,
        values: { Mode: 2 },
        idempotencyKey: key(),
        password: ADMIN.password,
      });
      expect(written.code).toBe(0);
      expect(written.data.message).toContain('Mode');
    } finally {
      answer = (params) => params;
    }
  });

  it('writes a brand’s family to a device of a protocol created through the API', async () => {
    const written = await post<CommandResult>('/api/v1/setting/uneet', {
      sn: SN.vendor,
      values: { PLim: 70, Mode: 1 },
      idempotencyKey: key(),
      password: ADMIN.password,
    });
    expect(written).toMatchObject({ code: 0, data: { values: { PLim: 70, Mode: 1 }, message: null } });
  });

  it('refuses an offline device before sending anything (603)', async () => {
    await server.database.db.update(devices).set({ status: DeviceStatus.OFFLINE }).where(eq(devices.sn, SN.bms));
    try {
      const refused = await post('/api/v1/gy/setting', {
        sn: SN.bms,
        values: { SocRsvMax: 90 },
        idempotencyKey: key(),
        password: ADMIN.password,
      });
      expect(refused.code).toBe(Code.DEVICE_OFFLINE);
    } finally {
      await server.database.db.update(devices).set({ status: DeviceStatus.NORMAL }).where(eq(devices.sn, SN.bms));
    }
  });
});

describe('the setting pages’ list', () => {
  it('lists the devices with the families of each page, their forms and whether the caller may write', async () => {
    const page = await get<{ infos: SettingsDeviceRow[]; total: number }>('/api/v1/settings/devices?scope=device&size=50');
    expect(page.code).toBe(0);
    const bySn = new Map(page.data.infos.map((d) => [d.sn, d]));
    expect([...bySn.keys()].sort()).toEqual([SN.acSwitch, SN.heatPump, SN.hybrid, SN.inverter, SN.vendor].sort());
    expect(bySn.get(SN.hybrid)?.groups.map((g) => g.family)).toEqual(['dy/grid']);
    expect(bySn.get(SN.vendor)?.groups.map((g) => g.family)).toEqual(['asw', 'setting/uneet', 'setting/sidaoer', 'thinkPower']);
    expect(bySn.get(SN.inverter)?.canWrite).toBe(true);
    const battery = await get<{ infos: SettingsDeviceRow[] }>('/api/v1/settings/devices?scope=battery&size=50');
    expect(battery.data.infos.map((d) => [d.sn, d.groups.map((g) => g.family)]).sort()).toEqual(
      [
        [SN.bms, ['gy/setting']],
        [SN.hybrid, ['dy/store/threePhase']],
        [SN.vendor, ['dy/store/single']],
      ].sort(),
    );
    const found = await get<{ infos: SettingsDeviceRow[] }>(`/api/v1/settings/devices?scope=device&keyword=${SN.heatPump}`);
    expect(found.data.infos.map((d) => d.sn)).toEqual([SN.heatPump]);
  });

  it('shows another company’s administrator none of these devices, and refuses their reads and writes', async () => {
    const page = await get<{ infos: SettingsDeviceRow[]; total: number }>('/api/v1/settings/devices?scope=device', companyAdmin);
    expect(page.data.total).toBe(0);
    expect((await get(`/api/v1/dy/grid?sn=${SN.inverter}`, companyAdmin)).code).toBe(Code.DEVICE_NOT_FOUND);
    const write = await post(
      '/api/v1/dy/grid',
      { sn: SN.inverter, values: { WMaxLimPct: 10 }, idempotencyKey: key(), password: 'x' },
      companyAdmin,
    );
    expect(write.code).toBe(Code.DEVICE_NOT_FOUND);
  });

  it('refuses a plant guest, who has no settings permission (2)', async () => {
    expect((await get('/api/v1/settings/devices?scope=device', guest)).code).toBe(Code.NO_PERMISSION);
  });
});

describe('switch limits as open/closed pairs (issue 22, spec 02 §5)', () => {
  /** Writes the switch's limits, counting what reaches the played gateway. */
  async function writeLimits(values: Record<string, number>) {
    let sent = 0;
    answer = (params) => {
      sent += 1;
      return params;
    };
    try {
      const result = await post<CommandResult & { errors?: { field: string; message: string }[] }>('/api/v1/setting/switch', {
        sn: SN.acSwitch,
        values,
        idempotencyKey: key(),
        password: ADMIN.password,
      });
      return { ...result, sent };
    } finally {
      answer = (params) => params;
    }
  }

  it('lists the switch form with its pairs, and writes a pair in order, which the switch confirms', async () => {
    const page = await get<{ infos: SettingsDeviceRow[] }>(`/api/v1/settings/devices?scope=device&keyword=${SN.acSwitch}`);
    const group = page.data.infos[0]?.groups[0];
    expect(group?.family).toBe('setting/switch');
    expect(group?.pairs).toContainEqual({ open: 'ALim', closed: 'ALimRcl', trip: 'above' });
    expect(group?.pairs).toContainEqual({ open: 'VLimLo', closed: 'VLimLoRcl', trip: 'below' });
    expect(group?.params.find((p) => p.id === 'ALimRcl')).toMatchObject({ unit: 'A', min: 1, max: 63, value: 36 });
    const written = await writeLimits({ ALim: 20, ALimRcl: 16 });
    expect(written).toMatchObject({ code: 0, sent: 1, data: { status: 'ok', values: { ALim: 20, ALimRcl: 16 }, message: null } });
    // The other pairs of the page show no pairs elsewhere.
    const heatPump = await get<{ infos: SettingsDeviceRow[] }>(`/api/v1/settings/devices?scope=device&keyword=${SN.heatPump}`);
    expect(heatPump.data.infos[0]?.groups[0]?.pairs).toEqual([]);
  });

  it('refuses an open value not above its closed value with 4430, the half not asked as the switch reports it, sending nothing', async () => {
    const wrong: Record<string, number>[] = [{ ALim: 20, ALimRcl: 20 }, { ALim: 15, ALimRcl: 30 }, { ALim: 30 }, { WLimRcl: 45000 }];
    for (const values of wrong) {
      const refused = await writeLimits(values);
      expect(refused.code, JSON.stringify(values)).toBe(Code.AC_SWITCH_LIMIT_PAIR);
      expect(refused.sent).toBe(0);
    }
    // The switch reports ALim 40 / ALimRcl 36 (its first values): the message names the rule and the limit.
    const refused = await writeLimits({ ALim: 36 });
    expect(refused.message).toContain('the open (trip) value must exceed the closed (reclose) value');
    expect(refused.message).toContain('Current limit');
    // Under-voltage reads the other way round: 184 V open, 196 V closed as reported.
    expect((await writeLimits({ VLimLo: 200 })).code).toBe(Code.AC_SWITCH_LIMIT_PAIR);
    expect((await writeLimits({ VLimLoRcl: 180 })).code).toBe(Code.AC_SWITCH_LIMIT_PAIR);
    expect(await writeLimits({ VLimLo: 180, VLimLoRcl: 200 })).toMatchObject({ code: 0, sent: 1 });
  });

  it('wants positive integers for the limits (4 naming the value), the range checks first', async () => {
    const fraction = await writeLimits({ ALim: 20.5, ALimRcl: 16 });
    expect(fraction).toMatchObject({ code: Code.VALIDATION, sent: 0 });
    expect((fraction.data as unknown as { errors: { field: string; message: string }[] }).errors).toEqual([
      { field: 'values.ALim', message: 'a positive whole number' },
    ]);
    expect(await writeLimits({ WLim: 0 })).toMatchObject({ code: Code.VALIDATION, sent: 0 });
    expect(await writeLimits({ LeakLimRcl: -1 })).toMatchObject({ code: Code.VALIDATION, sent: 0 });
  });
});
