import { readFileSync } from 'node:fs';
import { Code } from '@sunward/contracts/codes';
import type {
  DaySeries,
  DeleteResult,
  DeviceCounts,
  DeviceDetail,
  DevicePage,
  DeviceRealtime,
  EnergyBars,
  MeterSettings,
  PvIv,
  WorkdataPage,
} from '@sunward/contracts/devices';
import type { DownloadRecord, DownloadRecordPage } from '@sunward/contracts/files';
import type { PlantCreate } from '@sunward/contracts/plants';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { devices, operationLog } from '../../db/schema.js';
import { apiClient, signedInUser } from '../../test/api.js';
import { call, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';

let server: TestServer;
let adminToken: string;
let plantId: number;
let gateway: TestGateway;
const ids: Record<string, number> = {};
/** Minutes since midnight in a zone, now. */
function minutesIntoDay(timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(
    new Date(),
  );
  return Number(parts.find((p) => p.type === 'hour')?.value) * 60 + Number(parts.find((p) => p.type === 'minute')?.value);
}
/** The readings below span the last 31 minutes; they must fall on one plant-local day, so in Berlin's first 35
 * minutes the plant is in London (an hour behind) instead. */
const ZONE = minutesIntoDay('Europe/Berlin') < 35 ? 'Europe/London' : 'Europe/Berlin';

const DEVICES = [
  { sn: 'DVIN000001', protocolId: 'sunspec-inverter-3p', family: 'inverter' },
  { sn: 'DVHY000001', protocolId: 'sunspec-hybrid-lv', family: 'hybrid_inverter' },
  { sn: 'DVBT000001', protocolId: 'sunspec-battery-bms', family: 'battery' },
  { sn: 'DVBT000002', protocolId: 'sunspec-battery-bms', family: 'battery' },
  { sn: 'DVMT000001', protocolId: 'sunspec-meter-3p', family: 'meter' },
  { sn: 'DVMT000002', protocolId: 'sunspec-meter-3p', family: 'meter' },
  { sn: 'DVOP000001', protocolId: 'sunspec-optimizer', family: 'optimizer' },
  { sn: 'DVWS000001', protocolId: 'sunspec-weather-station', family: 'weather_station' },
  { sn: 'DVCB000001', protocolId: 'sunspec-combiner-box', family: 'combiner_box' },
  { sn: 'DVHP000001', protocolId: 'vendor-heat-pump', family: 'heat_pump' },
  { sn: 'DVSW000001', protocolId: 'vendor-ac-switch', family: 'ac_switch' },
];

const { get, post } = apiClient(
  () => server.app,
  () => adminToken,
);

beforeAll(async () => {
  server = await startTestServer();
  adminToken = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const key = 'dvgw1key';
  const gatewayId = await server.registerGateway('GWDV000001', key);
  const body: PlantCreate = {
    name: 'Device Test Plant',
    capacityKwp: 20,
    plantType: 3,
    latitude: 48.1,
    longitude: 11.5,
    timezone: ZONE,
    meteringTopology: 'net',
    gateways: [{ sn: 'GWDV000001', key }],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token: adminToken, json: body });
  plantId = created.body.data.id;
  const rows = await server.database.db
    .insert(devices)
    .values(DEVICES.map((d) => ({ ...d, plantId, gatewayId, model: d.protocolId })))
    .returning({ id: devices.id, sn: devices.sn });
  for (const r of rows) ids[r.sn] = r.id;
  // The second pack is a slave of the first.
  await server.database.db.update(devices).set({ parentId: ids.DVBT000001 }).where(eq(devices.sn, 'DVBT000002'));
  await server.telemetry.pipeline.reloadDevices();

  gateway = await connectTestGateway(server.telemetry.mqttPort, 'GWDV000001', key);
  const now = Date.now();
  for (const [i, minutesAgo] of [30, 20, 10, 0].entries())
    await gateway.report(now - minutesAgo * 60_000 - 1000, [
      {
        sn: 'DVIN000001',
        proto: 'sunspec-inverter-3p',
        values: { W: 6000 + i * 100, WH: 500_000 + i * 500, St: 4, DCV1: 610, DCA1: 5.2, DCW1: 3172 },
      },
      {
        sn: 'DVHY000001',
        proto: 'sunspec-hybrid-lv',
        values: { W: 3000, BatW: -500, WH: 80_000 + i * 200, St: 4, GridW: -1200, LoadW: 1300, WorkMode: 0 },
      },
      {
        sn: 'DVBT000001',
        proto: 'sunspec-battery-bms',
        values: { W: -500, SoC: 55 + i, CellV1: 3.31, CellV2: 3.35, CellT1: 24, RelaySt: 3 },
      },
      { sn: 'DVBT000002', proto: 'sunspec-battery-bms', values: { W: -500, SoC: 54 + i } },
      { sn: 'DVMT000001', proto: 'sunspec-meter-3p', values: { W: -1200, TotWhImp: 10_000, TotWhExp: 20_000 + i * 300 } },
      { sn: 'DVMT000002', proto: 'sunspec-meter-3p', values: { W: 200, TotWhImp: 5_000 + i * 50, TotWhExp: 0 } },
      { sn: 'DVOP000001', proto: 'sunspec-optimizer', values: { DCW: 400, DCV: 38, DCA: 10.5 } },
      { sn: 'DVWS000001', proto: 'sunspec-weather-station', values: { POAI: 700, TmpAmb: 18 } },
      { sn: 'DVCB000001', proto: 'sunspec-combiner-box', values: { InDCA1: 9.1, InDCA2: 9.0, InDCA3: 2.1 } },
      { sn: 'DVHP000001', proto: 'vendor-heat-pump', values: { W: 1800, Mode: 1 } },
      { sn: 'DVSW000001', proto: 'vendor-ac-switch', values: { W: 900 } },
    ]);
  await server.telemetry.pipeline.drain();
});

afterAll(async () => {
  await gateway?.close();
  await server?.close();
});

describe('the call catalogue', () => {
  it('answers every Inverters and Optimizers row of calls.tsv but the remote-operation ones, and the device families', () => {
    const rows = readFileSync(new URL('../../../../../docs/spec/calls.tsv', import.meta.url), 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'))
      .filter(([, , area]) => area === 'Inverters' || area === 'Optimizers')
      .filter(
        ([, path]) =>
          !/\/(debug|upgrade|batchUpgrade|cutUpgrade|boot|shutdown|custom\/params)(\/|$)|setting\/\{sn\}\/support/.test(path ?? ''),
      );
    expect(rows.length).toBeGreaterThan(45);
    for (const [method, path] of rows) {
      const url = (path ?? '').replace(/\{sn\}/g, 'X').replace(/\{id\}/g, '1');
      expect(
        server.app.hasRoute({
          method: method as 'GET' | 'POST',
          url: url.replace(/X|(?<=\/)1(?=\/|$)/g, (m) => (m === 'X' ? ':sn' : ':id')),
        }),
        `${method} ${path}`,
      ).toBe(true);
    }
    for (const family of ['meters', 'batteries', 'meteorological', 'boxs', 'switchs', 'heatPumps'])
      expect(server.app.hasRoute({ method: 'GET', url: `/api/v1/${family}` }), family).toBe(true);
    expect(server.app.hasRoute({ method: 'GET', url: '/api/v1/workdata' })).toBe(true);
  });
});

describe('lists and counts', () => {
  it('lists inverters of every inverter family with live power, today’s energy and the spec’s type code', async () => {
    const page = await get<DevicePage>('/api/v1/inverters?sort=sn');
    expect(page.code).toBe(0);
    expect(page.data.total).toBe(2);
    const [hybrid, inverter] = page.data.infos;
    expect(inverter).toMatchObject({
      sn: 'DVIN000001',
      family: 'inverter',
      type: 4,
      status: 1,
      powerW: 6300,
      plantName: 'Device Test Plant',
      gatewaySn: 'GWDV000001',
      access: 'manage',
    });
    expect(inverter?.energyTodayWh).toBe(1500);
    expect(hybrid).toMatchObject({ sn: 'DVHY000001', type: 93, brand: 'Sunward' });
    const counts = await get<DeviceCounts>('/api/v1/inverters/count');
    expect(counts.data).toMatchObject({ total: 2, normal: 2, offline: 0 });
  });

  it('filters by SN or alias, status, type and plant, sorts and pages in the database', async () => {
    expect((await get<DevicePage>('/api/v1/inverters?keyword=hy')).data.infos.map((r) => r.sn)).toEqual(['DVHY000001']);
    expect((await get<DevicePage>('/api/v1/inverters?status=2')).data.total).toBe(0);
    expect((await get<DevicePage>('/api/v1/inverters?type=93')).data.infos.map((r) => r.sn)).toEqual(['DVHY000001']);
    expect((await get<DevicePage>('/api/v1/inverters?brand=sunw&model=hybrid')).data.infos.map((r) => r.sn)).toEqual(['DVHY000001']);
    expect((await get<DevicePage>('/api/v1/inverters?model=100%25')).data.total).toBe(0);
    expect((await get<DevicePage>(`/api/v1/inverters?plantId=${plantId}&sort=powerW&order=desc`)).data.infos[0]?.sn).toBe('DVIN000001');
    const paged = await get<DevicePage>('/api/v1/inverters?size=1&page=2&sort=sn');
    expect(paged.data.infos.map((r) => r.sn)).toEqual(['DVIN000001']);
    expect((await get('/api/v1/inverters?size=101')).code).toBe(Code.VALIDATION);
    expect((await get('/api/v1/inverters?status=9')).code).toBe(Code.VALIDATION);
  });

  it('lists every other family under its own call', async () => {
    const expected: Record<string, string[]> = {
      batteries: ['DVBT000001', 'DVBT000002'],
      meters: ['DVMT000001', 'DVMT000002'],
      optimizers: ['DVOP000001'],
      meteorological: ['DVWS000001'],
      boxs: ['DVCB000001'],
      heatPumps: ['DVHP000001'],
      switchs: ['DVSW000001'],
    };
    for (const [family, sns] of Object.entries(expected)) {
      const page = await get<DevicePage>(`/api/v1/${family}?sort=sn`);
      expect(
        page.data.infos.map((r) => r.sn),
        family,
      ).toEqual(sns);
      expect((await get<DeviceCounts>(`/api/v1/${family}/count`)).data.total, family).toBe(sns.length);
    }
    expect((await get<DevicePage>('/api/v1/batteries?sort=sn')).data.infos[0]).toMatchObject({ slaveCount: 1, soc: 58 });
  });
});

describe('detail, realtime and charts', () => {
  it('shows an inverter with the sections its model has and realtime values in the caller’s language', async () => {
    const detail = await get<DeviceDetail>('/api/v1/inverter/DVIN000001');
    expect(detail.data.sections).toEqual(expect.arrayContaining(['input', 'output', 'status']));
    expect(detail.data.sections).not.toContain('battery');
    expect(detail.data.defaultPoints).toContain('W');
    const hybrid = await get<DeviceDetail>('/api/v1/inverter/DVHY000001');
    expect(hybrid.data.sections).toEqual(expect.arrayContaining(['battery', 'grid', 'load']));

    const output = await get<DeviceRealtime>('/api/v1/inverter/DVIN000001/realtime/output');
    expect(output.data.sections.map((s) => s.key)).toEqual(['output']);
    expect(output.data.sections[0]?.values.find((v) => v.id === 'W')).toMatchObject({ value: 6300, unit: 'W' });
    const status = (await call<DeviceRealtime>(server.app, 'GET', '/api/v1/inverter/DVIN000001/realtime?lan=cn', { token: adminToken }))
      .body;
    expect(status.data.sections.find((s) => s.key === 'status')?.values.find((v) => v.id === 'St')?.text).toMatch(/[\u4e00-\u9fff]/);
    const iv = await get<PvIv>('/api/v1/inverter/DVIN000001/pvIVRealtime');
    expect(iv.data.strings[0]).toMatchObject({ index: 1, voltageV: 610, currentA: 5.2, powerW: 3172 });
    const battery = await get<DeviceRealtime>('/api/v1/inverter/DVHY000001/battery/realtime');
    expect(battery.data.sections[0]?.values.find((v) => v.id === 'BatW')?.value).toBe(-500);
    expect((await get<DeviceRealtime>('/api/v1/inverter/DVIN000001/eps/realtime')).data.sections).toEqual([]);
    const params = await get<{ values: { id: string }[] }>('/api/v1/inverter/DVIN000001/params');
    expect(params.data.values.map((v) => v.id)).toContain('WMaxLimPct');
  });

  it('draws today’s curve for chosen points and refuses more than 6 or unknown ones', async () => {
    const day = await get<DaySeries>('/api/v1/inverter/DVIN000001/day?points=W,DCW1');
    expect(day.data.series.map((s) => s.id)).toEqual(['W', 'DCW1']);
    expect(day.data.series[0]?.points.length).toBe(4);
    expect(day.data.timezone).toBe(ZONE);
    const week = await get<DaySeries>('/api/v1/inverter/DVIN000001/day?points=W&days=7');
    expect(week.data).toMatchObject({ days: 7 });
    expect(week.data.series[0]?.points.length).toBe(4);
    expect((await get('/api/v1/inverter/DVIN000001/day?days=61')).code).toBe(Code.VALIDATION);
    expect((await get('/api/v1/inverter/DVIN000001/day?points=W,A,Hz,VA,PF,DCW,DCA')).code).toBe(Code.VALIDATION);
    const unknown = await get('/api/v1/inverter/DVIN000001/day?points=Nope');
    expect(unknown.code).toBe(Code.VALIDATION);
    expect(JSON.stringify(unknown.data)).toContain('Nope');
    expect((await get<DaySeries>('/api/v1/inverter/DVHY000001/grid/day')).data.series.map((s) => s.id)).toContain('GridW');
  });

  it('adds up energy by day, month and year from the counters (meter import and export apart)', async () => {
    const month = await get<EnergyBars>('/api/v1/inverter/DVIN000001/month');
    expect(month.data.series.find((s) => s.key === 'WH')?.values.some((v) => v === 1500)).toBe(true);
    const year = await get<EnergyBars>('/api/v1/inverter/DVIN000001/year');
    expect(year.data.labels).toHaveLength(12);
    const meter = await get<EnergyBars>('/api/v1/meter/DVMT000001/month');
    expect(meter.data.series.map((s) => s.key).sort()).toEqual(['TotWhExp', 'TotWhImp']);
    expect(meter.data.series.find((s) => s.key === 'TotWhExp')?.values.some((v) => v === 900)).toBe(true);
    const total = await get<EnergyBars>('/api/v1/optimizer/DVOP000001/total');
    expect(total.data.labels.at(-1)).toBe(String(new Date().getFullYear()));
    expect((await get<DeviceDetail>('/api/v1/optimizer/DVOP000001/info')).data.device.sn).toBe('DVOP000001');
  });

  it('shows a battery master with its slaves and its cells', async () => {
    const detail = await get<DeviceDetail>('/api/v1/battery/DVBT000001');
    expect(detail.data.slaves.map((s) => s.sn)).toEqual(['DVBT000002']);
    const realtime = await get<DeviceRealtime>('/api/v1/battery/DVBT000001/realtime');
    const cells = realtime.data.sections.find((s) => s.key === 'cells');
    expect(cells?.values.find((v) => v.id === 'CellV2')?.value).toBeCloseTo(3.35);
    const relays = realtime.data.sections.flatMap((s) => s.values).find((v) => v.id === 'RelaySt');
    expect(relays?.text).toBe('Main +, Main −');
  });

  it('lists operation data records of a device with one column per point', async () => {
    const page = await get<WorkdataPage>('/api/v1/workdata?sn=DVIN000001');
    expect(page.data.total).toBe(4);
    const w = page.data.columns.findIndex((c) => c.id === 'W');
    expect(page.data.infos[0]?.values[w]).toBe(6300);
    expect((await get('/api/v1/workdata?sn=NOPE')).code).toBe(Code.DEVICE_NOT_FOUND);
  });
});

describe('changes', () => {
  it('renames a device within 32 bytes without special characters, and records it', async () => {
    expect((await post(`/api/v1/inverter/${ids.DVIN000001}/alias`, { alias: 'Roof east' })).code).toBe(0);
    expect((await get<DevicePage>('/api/v1/inverters?keyword=roof')).data.infos[0]?.alias).toBe('Roof east');
    expect((await post(`/api/v1/inverter/${ids.DVIN000001}/alias`, { alias: '屋顶东侧逆变器一号机组屋顶东侧逆变' })).code).toBe(
      Code.VALIDATION,
    );
    expect((await post(`/api/v1/inverter/${ids.DVIN000001}/alias`, { alias: 'a<b>' })).code).toBe(Code.VALIDATION);
    const log = await server.database.db.select().from(operationLog).where(eq(operationLog.target, 'DVIN000001'));
    expect(log.map((l) => l.action)).toContain('inverter.alias');
  });

  it('sets one main meter per plant and keeps meter settings within their ranges', async () => {
    expect((await post(`/api/v1/meter/${ids.DVMT000001}/main`, { main: true })).code).toBe(0);
    expect((await post(`/api/v1/meter/${ids.DVMT000002}/main`, { main: true })).code).toBe(0);
    const meters = (await get<DevicePage>('/api/v1/meters?sort=sn')).data.infos;
    expect(meters.map((m) => m.mainMeter)).toEqual([false, true]);
    const settings: MeterSettings = {
      ctRatio: 2000,
      ptRatio: 500,
      buyOffsetKwh: 12.5,
      sellOffsetKwh: 0,
      prices: { tip: 0.4, peak: 0.3, flat: 0.2, valley: 0.1 },
      discount: 0.9,
    };
    expect((await post(`/api/v1/meter/${ids.DVMT000002}/settings`, settings)).code).toBe(0);
    expect((await get<MeterSettings>('/api/v1/meter/DVMT000002/settings')).data).toEqual(settings);
    expect((await post(`/api/v1/meter/${ids.DVMT000002}/settings`, { ...settings, discount: 2 })).code).toBe(Code.VALIDATION);
  });

  it('exports the inverter list as a workbook', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/v1/inverters/exportInvertersExcel?lan=de',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.rowCount).toBe(3);
    expect(sheet?.getRow(1).getCell(1).value).toBe('Seriennummer');
    expect(sheet?.getRow(2).getCell(4).value).toBe('Dreiphasig Niedervolt');
  });

  it('prepares the inverter list in the download centre in the background, the same workbook as the immediate one', async () => {
    const started = await post<DownloadRecord>('/api/v1/inverters/exportInvertersExcel/background?lan=de');
    expect(started.code).toBe(0);
    expect(started.data).toMatchObject({ kind: 'inverter-list', format: 'xlsx' });
    let record: DownloadRecord | undefined;
    const deadline = Date.now() + 60_000;
    while (!record || (record.status !== 'done' && record.status !== 'failed')) {
      if (Date.now() > deadline) throw new Error(`export not done: ${JSON.stringify(record)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      record = (await get<DownloadRecordPage>('/api/v1/fileDownloadRecord/list')).data.infos.find((r) => r.id === started.data.id);
    }
    expect(record).toMatchObject({ status: 'done', rows: 2, progress: 100 });
    const file = await server.app.inject({
      method: 'GET',
      url: `/api/v1/fileDownloadRecord/${record.id}/download`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(file.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0]?.rowCount).toBe(3);
    expect(book.worksheets[0]?.getRow(1).getCell(1).value).toBe('Seriennummer');
  });

  it('prepares the battery list in the background in batches, naming each slave’s master', async () => {
    const started = await post<DownloadRecord>('/api/v1/batteriesDown/background');
    expect(started.data).toMatchObject({ kind: 'battery-list', format: 'xlsx' });
    await vi.waitFor(
      async () => {
        const list = (await get<DownloadRecordPage>('/api/v1/fileDownloadRecord/list')).data.infos;
        expect(list.find((r) => r.id === started.data.id)).toMatchObject({ status: 'done', rows: 2 });
      },
      { timeout: 60_000, interval: 100 },
    );
    const file = await server.app.inject({
      method: 'GET',
      url: `/api/v1/fileDownloadRecord/${started.data.id}/download`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const rows = [2, 3].map((n) => book.worksheets[0]?.getRow(n));
    expect(rows.map((r) => [r?.getCell(1).value, r?.getCell(2).value ?? null])).toEqual([
      ['DVBT000001', null],
      ['DVBT000002', 'DVBT000001'],
    ]);
  });
});

describe('permissions and tenants', () => {
  it('answers a user of another company as if no device existed, on every device call', async () => {
    const company = await server.createCompany('Other Company');
    const token = (await signedInUser(server, 'company_admin', company)).token;
    expect((await get<DevicePage>('/api/v1/inverters', token)).data.total).toBe(0);
    expect((await get<DeviceCounts>('/api/v1/batteries/count', token)).data.total).toBe(0);
    const inverterPaths = [
      '',
      '/realtime',
      '/realtime/input',
      '/realtime/output',
      '/pvIVRealtime',
      '/day',
      '/month',
      '/year',
      '/total',
      '/params',
      '/grid/realtime',
      '/load/day',
      '/battery/month',
    ];
    for (const p of inverterPaths) expect((await get(`/api/v1/inverter/DVIN000001${p}`, token)).code, p).toBe(Code.INVERTER_NOT_FOUND);
    for (const p of [
      '/api/v1/battery/DVBT000001',
      '/api/v1/meter/DVMT000001/realtime',
      '/api/v1/optimizer/DVOP000001/info',
      '/api/v1/meteorological/DVWS000001/day',
      '/api/v1/box/DVCB000001/month',
      '/api/v1/meter/DVMT000001/settings',
      '/api/v1/workdata?sn=DVIN000001',
    ])
      expect((await get(p, token)).code, p).toBe(Code.DEVICE_NOT_FOUND);
    expect((await post(`/api/v1/inverter/${ids.DVIN000001}/alias`, { alias: 'mine' }, token)).code).toBe(Code.INVERTER_NOT_FOUND);
    expect((await post(`/api/v1/meter/${ids.DVMT000001}/main`, { main: true }, token)).code).toBe(Code.DEVICE_NOT_FOUND);
    const batch = await post<DeleteResult>('/api/v1/inverter/batchDelete', { ids: [ids.DVIN000001] }, token);
    expect(batch.data).toMatchObject({ deleted: [], refused: [{ sn: String(ids.DVIN000001), reason: 'notFound' }] });
    expect((await get<DevicePage>('/api/v1/inverters')).data.total).toBe(2);
  });

  it('lets a guest of a shared plant read but not rename or delete, listing what it may not delete', async () => {
    const guest = await server.createUser('owner');
    await post(`/api/v1/plant/${plantId}/share`, { account: guest.account, role: 'guest' });
    const token = (await signIn(server.app, guest.account, guest.password)).access_token;
    const page = await get<DevicePage>('/api/v1/inverters', token);
    expect(page.data.infos.map((r) => r.access)).toEqual(['view', 'view']);
    expect((await post(`/api/v1/inverter/${ids.DVIN000001}/alias`, { alias: 'x' }, token)).code).toBe(Code.NO_PERMISSION);
    const refused = await post<DeleteResult>(`/api/v1/inverter/${ids.DVIN000001}/delete`, {}, token);
    expect(refused.data.refused).toEqual([{ sn: 'DVIN000001', reason: 'noPermission' }]);
  });

  it('refuses a call to a role without its permission (a guest role may not export or rename)', async () => {
    const token = (await signedInUser(server, 'guest')).token;
    expect((await get('/api/v1/inverters/exportInvertersExcel', token)).code).toBe(Code.NO_PERMISSION);
    expect((await post(`/api/v1/inverter/${ids.DVIN000001}/alias`, { alias: 'x' }, token)).code).toBe(Code.NO_PERMISSION);
  });

  it('deletes a battery master with its slave packs', async () => {
    const result = await post<DeleteResult>(`/api/v1/battery/${ids.DVBT000001}/delete`, {});
    expect(result.data).toEqual({ deleted: ['DVBT000001'], refused: [], slavesDeleted: ['DVBT000002'] });
    expect((await get<DevicePage>('/api/v1/batteries')).data.total).toBe(0);
  });
});
