import { Code } from '@sunward/contracts/codes';
import type { EventCounts, EventPage } from '@sunward/contracts/events';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceEvents, devices, rolePermissions, roles, users } from '../../db/schema.js';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let server: TestServer;
let adminToken: string;
let companyToken: string;
let plantId: number;
let gateway: TestGateway;
const ids: Record<string, number> = {};
const now = Date.now();

const { get } = apiClient(
  () => server.app,
  () => companyToken,
);
const page = async (query: string, token = companyToken) => (await get<EventPage>(`/api/v1/events${query}`, token)).data;

async function tokenOf(user: { account: string; password: string }) {
  return (await signIn(server.app, user.account, user.password)).access_token;
}

/**
 * A company's plant with a string inverter, a hybrid inverter and a meter reporting over MQTT. Their
 * Evt1 bits open and clear events in the pipeline: inverter 1001 fault (open) and 1003 warning
 * (opened, then cleared), hybrid 1002 protect (open). Inserted directly: an inverter event from 10 days
 * ago (cleared) and a meter fault opened 20 days ago that is still open.
 */
beforeAll(async () => {
  server = await startTestServer();
  adminToken = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const company = await server.createCompany('Event Company');
  companyToken = (await signedInUser(server, 'company_admin', company)).token;
  const created = await createPlant(
    server,
    companyToken,
    {
      name: 'Event Test Plant',
      capacityKwp: 12,
      latitude: 52.5,
      longitude: 13.4,
      meteringTopology: 'net',
      tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
    },
    company,
  );
  plantId = created.id;
  const gatewayId = created.gateway.id;
  const rows = await server.database.db
    .insert(devices)
    .values([
      { sn: 'EVIN000001', protocolId: 'sunspec-inverter-1p', family: 'inverter', alias: 'Roof east', plantId, gatewayId },
      { sn: 'EVHY000001', protocolId: 'sunspec-hybrid-lv', family: 'hybrid_inverter', plantId, gatewayId },
      { sn: 'EVMT000001', protocolId: 'sunspec-meter-3p', family: 'meter', plantId, gatewayId },
      { sn: 'EVBULK0001', protocolId: 'sunspec-inverter-1p', family: 'inverter', plantId, gatewayId },
    ])
    .returning({ id: devices.id, sn: devices.sn });
  for (const r of rows) ids[r.sn] = r.id;
  await server.telemetry.pipeline.reloadDevices();

  gateway = await connectTestGateway(server.telemetry.mqttPort, created.gateway.sn, created.gateway.key);
  await gateway.report(now - 3 * HOUR, [
    { sn: 'EVIN000001', proto: 'sunspec-inverter-1p', values: { W: 1500, St: 7, Evt1: 0b101 } },
    { sn: 'EVHY000001', proto: 'sunspec-hybrid-lv', values: { W: 2000, St: 4, Evt1: 0 } },
    { sn: 'EVMT000001', proto: 'sunspec-meter-3p', values: { W: 100, Evt: 0 } },
  ]);
  await gateway.report(now - 2 * HOUR, [
    { sn: 'EVIN000001', proto: 'sunspec-inverter-1p', values: { W: 1500, St: 7, Evt1: 0b001 } },
    { sn: 'EVHY000001', proto: 'sunspec-hybrid-lv', values: { W: 2000, St: 4, Evt1: 0b010 } },
    { sn: 'EVMT000001', proto: 'sunspec-meter-3p', values: { W: 100, Evt: 0 } },
  ]);
  await server.telemetry.pipeline.drain();
  await server.database.db.insert(deviceEvents).values([
    {
      deviceId: ids.EVIN000001 ?? 0,
      plantId,
      code: 1005,
      level: 'protect',
      openedAt: new Date(now - 10 * DAY),
      clearedAt: new Date(now - 10 * DAY + HOUR),
    },
    { deviceId: ids.EVMT000001 ?? 0, plantId, code: 2003, level: 'fault', openedAt: new Date(now - 20 * DAY) },
  ]);
});

afterAll(async () => {
  await gateway?.close();
  await server?.close();
});

describe('the event list', () => {
  it('lists events of the last 7 days and those still open, newest first, with texts from the register map', async () => {
    const result = await page('');
    expect(result.infos.map((e) => [e.deviceSn, e.code, e.level, e.status])).toEqual([
      ['EVHY000001', 1002, 'protect', 'active'],
      ['EVIN000001', 1003, 'warning', 'cleared'],
      ['EVIN000001', 1001, 'fault', 'active'],
      ['EVMT000001', 2003, 'fault', 'active'],
    ]);
    expect(result.total).toBe(4);
    const fault = result.infos.find((e) => e.code === 1001);
    expect(fault).toMatchObject({
      type: 'inverter',
      family: 'inverter',
      deviceAlias: 'Roof east',
      plantId,
      plantName: 'Event Test Plant',
      clearedAt: null,
      description: 'Ground fault (insulation resistance too low)',
    });
    expect(fault?.solution).toMatch(/insulation resistance/);
    const cleared = result.infos.find((e) => e.code === 1003);
    expect(Date.parse(cleared?.clearedAt ?? '')).toBe(now - 2 * HOUR);
    expect(result.infos.find((e) => e.code === 1002)?.type).toBe('inverter');
  });

  it('answers the description and solution in the caller’s language: the map’s Chinese for cn, the built-in translations for the others', async () => {
    const cn = await get<EventPage>('/api/v1/events?level=fault&deviceSn=EVIN', { headers: { 'accept-language': 'zh-CN' } });
    expect(cn.data.infos[0]?.description).toBe('接地故障（绝缘阻抗过低）');
    const de = await get<EventPage>('/api/v1/events?level=fault&deviceSn=EVIN&lan=de', companyToken);
    expect(de.data.infos[0]?.description).toBe('Erdschluss (Isolationswiderstand zu niedrig)');
    const en = await get<EventPage>('/api/v1/events?level=fault&deviceSn=EVIN&lan=en', companyToken);
    expect(en.data.infos[0]?.description).toBe('Ground fault (insulation resistance too low)');
  });

  it('filters by level, status, device SN, plant, family and keyword', async () => {
    const codes = async (query: string) => (await page(query)).infos.map((e) => e.code);
    expect(await codes('?level=fault')).toEqual([1001, 2003]);
    expect(await codes('?level=fault,protect')).toEqual([1002, 1001, 2003]);
    expect(await codes('?status=cleared')).toEqual([1003]);
    expect(await codes('?status=active&level=fault')).toEqual([1001, 2003]);
    expect(await codes('?deviceSn=evhy')).toEqual([1002]);
    expect(await codes(`?plantId=${plantId}&family=meter`)).toEqual([2003]);
    expect(await codes(`?plantId=${plantId + 1000}`)).toEqual([]);
    // A kind takes every family of its list: the inverter list holds the hybrid too.
    expect(await codes('?family=inverter')).toEqual([1002, 1003, 1001]);
    expect(await codes('?family=hybrid_inverter')).toEqual([1002]);
    expect(await codes('?family=battery')).toEqual([]);
    expect(await codes('?keyword=ground')).toEqual([1001]);
    expect(await codes(`?keyword=${encodeURIComponent('接地')}`)).toEqual([1001]);
    expect(await codes('?keyword=2003')).toEqual([2003]);
    expect(await codes('?keyword=roof')).toEqual([1003, 1001]);
  });

  it('takes the period as ISO date-times or days and keeps open events whatever the start', async () => {
    const codes = async (query: string) => (await page(query)).infos.map((e) => e.code);
    const from = new Date(now - 15 * DAY).toISOString();
    expect(await codes(`?from=${encodeURIComponent(from)}`)).toEqual([1002, 1003, 1001, 1005, 2003]);
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    expect(await codes(`?from=${day(now - 10 * DAY)}&to=${day(now - 10 * DAY)}`)).toEqual([1005, 2003]);
    // Before the meter fault opened, nothing was open.
    expect(await codes(`?from=${day(now - 40 * DAY)}&to=${day(now - 30 * DAY)}`)).toEqual([]);
  });

  it('pages newest first and refuses a page size above 100 and bad filters with code 4', async () => {
    const first = await page('?page=1&size=2');
    const second = await page('?page=2&size=2');
    expect(first.total).toBe(4);
    expect([...first.infos, ...second.infos].map((e) => e.code)).toEqual([1002, 1003, 1001, 2003]);
    for (const query of ['?size=101', '?level=info', '?status=open', '?from=yesterday', '?from=2024-03-02&to=2024-03-01', '?page=0'])
      expect((await get(`/api/v1/events${query}`)).code, query).toBe(Code.VALIDATION);
    expect((await get('/api/v1/events?size=100')).code).toBe(Code.OK);
  });

  it('counts open events by level the way overview/eventCount counts them', async () => {
    const counts = (await get<EventCounts>('/api/v1/events/count')).data;
    expect(counts).toEqual({ active: { fault: 2, warning: 0, protect: 1 }, activeTotal: 3, total: 4 });
    const overview = (await get<{ total: number; open: number }>('/api/v1/overview/eventCount')).data;
    expect(overview.open).toBe(counts.activeTotal);
    const plant = (await get<{ open: number }>(`/api/v1/plant/${plantId}/eventCount`)).data;
    expect(plant.open).toBe(counts.activeTotal);
    // Level and status do not narrow the badges; the device does.
    expect((await get<EventCounts>('/api/v1/events/count?level=warning&status=cleared')).data).toEqual(counts);
    expect((await get<EventCounts>('/api/v1/events/count?deviceSn=EVMT')).data).toEqual({
      active: { fault: 1, warning: 0, protect: 0 },
      activeTotal: 1,
      total: 1,
    });
  });
});

describe('permissions and tenants', () => {
  it('shows a user of another company none of these events', async () => {
    const other = await server.createCompany('Other Event Company');
    const token = await tokenOf(await server.createUser('company_admin', undefined, { companyId: other }));
    expect(await page('', token)).toEqual({ infos: [], total: 0 });
    expect(await page(`?plantId=${plantId}&deviceSn=EVIN`, token)).toEqual({ infos: [], total: 0 });
    expect((await get<EventCounts>('/api/v1/events/count', token)).data).toEqual({
      active: { fault: 0, warning: 0, protect: 0 },
      activeTotal: 0,
      total: 0,
    });
    const csv = await server.app.inject({
      method: 'GET',
      url: '/api/v1/events/export?format=csv',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(csv.body.trim().split('\r\n')).toHaveLength(1);
    // The platform administrator sees every company's events.
    expect((await page('', adminToken)).total).toBe(4);
  });

  it('refuses the list without event.view and the export without event.export (code 2)', async () => {
    const company = await server.createCompany('Narrow Role Company');
    const [role] = await server.database.db
      .insert(roles)
      .values({ companyId: company, key: 'plants-only', name: 'Plants only' })
      .returning({ id: roles.id });
    if (!role) throw new Error('no role');
    await server.database.db.insert(rolePermissions).values({ roleId: role.id, permissionKey: 'station.view' });
    const user = await server.createUser('guest', undefined, { companyId: company });
    await server.database.db.update(users).set({ roleId: role.id }).where(eq(users.id, user.id));
    const narrow = await tokenOf(user);
    for (const path of ['/api/v1/events', '/api/v1/events/count', '/api/v1/events/export'])
      expect((await get(path, narrow)).code, path).toBe(Code.NO_PERMISSION);
    const guest = await tokenOf(await server.createUser('guest'));
    expect((await get('/api/v1/events', guest)).code).toBe(Code.OK);
    expect((await get('/api/v1/events/export?format=csv', guest)).code).toBe(Code.NO_PERMISSION);
  });
});

describe('export', () => {
  const download = (query: string, headers: Record<string, string> = {}) =>
    server.app.inject({
      method: 'GET',
      url: `/api/v1/events/export${query}`,
      headers: { authorization: `Bearer ${companyToken}`, ...headers },
    });

  it('writes CSV with a UTF-8 byte order mark, localised headers and one line per event', async () => {
    const response = await download('?format=csv&level=fault', { 'accept-language': 'zh-CN' });
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="events-.*\.csv"/);
    const bytes = response.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('级别,事件代码,设备SN,设备别名,设备类型,电站,发生时间(UTC),恢复时间(UTC),持续时长(分钟),状态,描述,解决方案');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('故障,1001,EVIN000001,Roof east,逆变器,Event Test Plant,');
    expect(lines[1]).toContain('未恢复,接地故障（绝缘阻抗过低）,');
    expect(lines[2]).toContain(',2003,EVMT000001,');
  });

  it('writes .xlsx under the same filters with headers in the caller’s language', async () => {
    const response = await download('?format=xlsx&status=cleared', { 'accept-language': 'de' });
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.rowCount).toBe(2);
    expect(sheet?.getRow(1).getCell(1).value).toBe('Stufe');
    expect(sheet?.getRow(1).getCell(11).value).toBe('Beschreibung');
    const row = sheet?.getRow(2);
    expect(row?.getCell(2).value).toBe(1003);
    expect(row?.getCell(3).value).toBe('EVIN000001');
    expect(row?.getCell(9).value).toBe(60);
    expect(row?.getCell(11).value).toBe('AC-Schalter offen');
  });

  it('refuses more than 20,000 rows with code 706 and lets a narrower export through', async () => {
    const start = new Date(now - 5 * DAY).toISOString();
    await server.database.db.execute(sql`
      insert into device_events (device_id, plant_id, code, level, opened_at, cleared_at)
      select ${ids.EVBULK0001}, ${plantId}, 1004, 'warning', ${start}::timestamptz + i * interval '1 second',
             ${start}::timestamptz + i * interval '1 second' + interval '1 second'
      from generate_series(1, 20001) as i`);
    const refused = await download('?format=csv');
    const envelope = refused.json<{ code: number; message: string }>();
    expect(envelope.code).toBe(Code.TOO_MANY_RECORDS);
    expect(envelope.message).toContain('20000');
    expect((await download('?format=csv&deviceSn=EVIN')).statusCode).toBe(200);
    const list = await page('?deviceSn=EVBULK&size=100&page=3');
    expect(list.total).toBe(20_001);
    expect(list.infos).toHaveLength(100);
  });
});
