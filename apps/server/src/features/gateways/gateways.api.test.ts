import { Code } from '@sunward/contracts/codes';
import { type CommandPayload, CommandPayloadSchema, gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type {
  GatewayCounts,
  GatewayDetail,
  GatewayImportResult,
  GatewayPage,
  GatewaySettings,
  ServerAddress,
} from '@sunward/contracts/gateways';
import type { PlantCreate } from '@sunward/contracts/plants';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { devices, gateways, operationLog } from '../../db/schema.js';
import { apiClient, signedInUser } from '../../test/api.js';
import { call, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway } from '../../test/test-gateway.js';

let server: TestServer;
let adminToken: string;
/** Company A's administrator manages the company's plant and gateways; company B's is the stranger. */
let companyA: number;
let tokenA: string;
let tokenB: string;
let plantId: number;
let boundId: number;
let unboundId: number;
const clients: MqttClient[] = [];

const { get, post } = apiClient(() => server.app);

function multipart(file: { name: string; bytes: Buffer }[]) {
  const boundary = `----gw${Date.now()}`;
  const parts: Buffer[] = [];
  for (const f of file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${f.name}"\r\ncontent-type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function importFile(token: string, files: { name: string; bytes: Buffer }[]) {
  const body = multipart(files);
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/v1/gateways/import',
    headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType },
    payload: body.payload,
  });
  return response.json() as { code: number; data: GatewayImportResult; message: string };
}

async function workbook(rows: (string | null)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Gateways');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

type Answer = (command: CommandPayload) => Record<string, unknown> | undefined;

/** A gateway on the wire that answers `configure` as `answer` says (undefined: stays silent). */
async function answeringGateway(sn: string, key: string, answer: Answer): Promise<MqttClient> {
  const port = server.telemetry.mqttPort;
  const client: MqttClient = await new Promise((resolve, reject) => {
    const c = mqtt.connect(`mqtt://127.0.0.1:${port}`, { clientId: sn, username: sn, password: key, reconnectPeriod: 0 });
    c.once('connect', () => resolve(c));
    c.once('error', reject);
  });
  clients.push(client);
  client.on('message', (_topic, payload) => {
    const command = CommandPayloadSchema.parse(JSON.parse(payload.toString('utf8')));
    const reply = answer(command);
    if (reply) void client.publishAsync(gatewayTopic(sn, 'reply'), JSON.stringify({ v: 1, id: command.id, ...reply }), { qos: 1 });
  });
  await client.subscribeAsync(gatewayTopic(sn, 'cmd'), { qos: 1 });
  return client;
}

/** The simulator's behaviour in a few lines: keeps the settings, refuses changes while locked. */
function settingsKeeper(initial = 'old.example.com:1883'): Answer {
  const state = { serverAddress: initial, locked: false, digitalOutput: false };
  return (command) => {
    if (command.op !== 'configure' || !command.config) return { status: 'error', error: 'unsupported' };
    const c = command.config;
    if (state.locked && c.locked !== false) return { status: 'error', error: 'locked' };
    if (c.serverAddress !== undefined) state.serverAddress = c.serverAddress;
    if (c.locked !== undefined) state.locked = c.locked;
    if (c.digitalOutput !== undefined) state.digitalOutput = c.digitalOutput;
    return { status: 'ok', config: { ...state, ...(c.connectionPassword ? { passwordSetAt: Date.now() } : {}) } };
  };
}

async function waitOnline(id: number, online = true) {
  await vi.waitFor(
    async () => {
      const [row] = await server.database.db.select({ online: gateways.online }).from(gateways).where(eq(gateways.id, id));
      if (row?.online !== online) throw new Error('presence not recorded yet');
    },
    { timeout: 10_000, interval: 50 },
  );
}

beforeAll(async () => {
  server = await startTestServer();
  adminToken = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  companyA = await server.createCompany('Gateway Company A');
  const companyB = await server.createCompany('Gateway Company B');
  tokenA = (await signedInUser(server, 'company_admin', companyA)).token;
  tokenB = (await signedInUser(server, 'company_admin', companyB)).token;

  // A plant of company A bound to GWAPI00001, whose inverter the server discovers from a real report.
  await server.registerGateway('GWAPI00001', 'gwkey00001');
  const body: PlantCreate = {
    name: 'Gateway Test Plant',
    capacityKwp: 10,
    plantType: 3,
    latitude: 48.1,
    longitude: 11.5,
    timezone: 'Europe/Berlin',
    meteringTopology: 'net',
    gateways: [{ sn: 'GWAPI00001', key: 'gwkey00001' }],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const created = await post<{ id: number }>('/api/v1/plant', body, tokenA);
  if (created.code !== 0) throw new Error(JSON.stringify(created));
  plantId = created.data.id;
  const reporter = await connectTestGateway(server.telemetry.mqttPort, 'GWAPI00001', 'gwkey00001');
  await reporter.report(Date.now(), [{ sn: 'INAPI00001', proto: 'sunspec-inverter-3p', values: {} }]);
  const [bound] = await server.database.db.select({ id: gateways.id }).from(gateways).where(eq(gateways.sn, 'GWAPI00001'));
  boundId = bound?.id ?? 0;
  await waitOnline(boundId, true);
  await reporter.close();
  await waitOnline(boundId, false);
  unboundId = await server.registerGateway('GWAPI00002', 'gwkey00002', companyA);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  await server?.close();
});

describe('gateway list and counts', () => {
  it('lists the company’s gateways with plant, device count and every column, paged', async () => {
    const page = await get<GatewayPage>('/api/v1/gateways', { token: tokenA, query: { sort: 'sn' } });
    expect(page.code).toBe(0);
    expect(page.data.total).toBe(2);
    const [first, second] = page.data.infos;
    expect(first).toMatchObject({
      id: boundId,
      sn: 'GWAPI00001',
      snMasked: false,
      plantId,
      plantName: 'Gateway Test Plant',
      deviceCount: 1,
      locked: false,
      access: 'manage',
    });
    expect(Object.keys(first ?? {})).toEqual(
      expect.arrayContaining([
        'rssi',
        'commType',
        'iccid',
        'hwVersion',
        'fwVersion',
        'lastOnlineAt',
        'lastIp',
        'serverAddress',
        'digitalOutput',
      ]),
    );
    expect(second).toMatchObject({ sn: 'GWAPI00002', plantId: null, deviceCount: 0 });
    const one = await get<GatewayPage>('/api/v1/gateways', { token: tokenA, query: { size: '1', page: '2' } });
    expect(one.data.infos.map((g) => g.sn)).toEqual(['GWAPI00002']);
  });

  it('filters by keyword, plant, status and lock, and sorts by last online time', async () => {
    expect((await get<GatewayPage>('/api/v1/gateways', { token: tokenA, query: { keyword: 'api00002' } })).data.total).toBe(1);
    expect(
      (await get<GatewayPage>('/api/v1/gateways', { token: tokenA, query: { plantId: String(plantId) } })).data.infos.map((g) => g.sn),
    ).toEqual(['GWAPI00001']);
    expect((await get<GatewayPage>('/api/v1/gateways', { token: tokenA, query: { status: 'online' } })).data.total).toBe(0);
    expect((await get<GatewayPage>('/api/v1/gateways', { token: tokenA, query: { locked: 'true' } })).data.total).toBe(0);
    const byTime = await get<GatewayPage>('/api/v1/gateways', { token: tokenA, query: { sort: 'lastOnlineAt', order: 'desc' } });
    expect(byTime.data.infos[0]?.sn).toBe('GWAPI00001');
  });

  it('refuses a page size above 100 and an unknown status with code 4', async () => {
    expect((await get('/api/v1/gateways', { token: tokenA, query: { size: '101' } })).code).toBe(Code.VALIDATION);
    expect((await get('/api/v1/gateways', { token: tokenA, query: { status: 'asleep' } })).code).toBe(Code.VALIDATION);
  });

  it('counts online and offline gateways for the caller only', async () => {
    const counts = await get<GatewayCounts>('/api/v1/gateways/count', tokenA);
    expect(counts.data).toEqual({ online: 0, offline: 2, total: 2 });
    expect((await get<GatewayCounts>('/api/v1/gateways/count', tokenB)).data).toEqual({ online: 0, offline: 0, total: 0 });
  });

  it('masks the SN as an asterisk and its last 4 characters for a guest of a shared plant', async () => {
    const owner = await signedInUser(server, 'owner');
    const guest = await signedInUser(server, 'guest');
    await server.registerGateway('GWAPISHARE', 'sharekey01');
    const body: PlantCreate = {
      name: 'Shared Gateway Plant',
      capacityKwp: 5,
      plantType: 3,
      latitude: 48.1,
      longitude: 11.5,
      timezone: 'Europe/Berlin',
      meteringTopology: 'net',
      gateways: [{ sn: 'GWAPISHARE', key: 'sharekey01' }],
      tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
    };
    const plant = await post<{ id: number }>('/api/v1/plant', body, owner.token);
    expect((await post(`/api/v1/plant/${plant.data.id}/share`, { account: guest.account, role: 'guest' }, owner.token)).code).toBe(0);
    const seen = await get<GatewayPage>('/api/v1/gateways', guest.token);
    expect(seen.data.infos).toEqual([expect.objectContaining({ sn: '*HARE', snMasked: true, access: 'view' })]);
    expect((await get<GatewayPage>('/api/v1/gateways', owner.token)).data.infos[0]).toMatchObject({ sn: 'GWAPISHARE', snMasked: false });
    // A guest cannot rename (no gateway.edit permission).
    expect((await post(`/api/v1/gateway/${seen.data.infos[0]?.id}/alias`, { alias: 'x' }, guest.token)).code).toBe(Code.NO_PERMISSION);
  });
});

describe('one gateway', () => {
  it('answers a gateway with its devices', async () => {
    const detail = await get<GatewayDetail>('/api/v1/gateway/GWAPI00001', tokenA);
    expect(detail.code).toBe(0);
    expect(detail.data.devices).toEqual([expect.objectContaining({ sn: 'INAPI00001', family: 'inverter' })]);
  });

  it('renames within 32 bytes and refuses longer or special-character aliases with code 4', async () => {
    expect((await post(`/api/v1/gateway/${unboundId}/alias`, { alias: '屋顶网关一号' }, tokenA)).code).toBe(0);
    expect((await get<GatewayPage>('/api/v1/gateways', { token: tokenA, query: { keyword: '屋顶' } })).data.infos[0]?.alias).toBe(
      '屋顶网关一号',
    );
    const long = await post<{ errors: { message: string }[] }>(`/api/v1/gateway/${unboundId}/alias`, { alias: '网'.repeat(11) }, tokenA);
    expect(long.code).toBe(Code.VALIDATION);
    expect(long.data.errors[0]?.message).toMatch(/32 bytes/);
    expect((await post(`/api/v1/gateway/${unboundId}/alias`, { alias: 'gw#1' }, tokenA)).code).toBe(Code.VALIDATION);
    const [logged] = await server.database.db
      .select()
      .from(operationLog)
      .where(and(eq(operationLog.action, 'gateway.alias'), eq(operationLog.target, 'GWAPI00002')));
    expect(logged?.result).toBe('ok');
  });

  it('answers 305 to a user of another company on every gateway call', async () => {
    const id = boundId;
    const probes: [string, string, unknown][] = [
      ['GET', '/api/v1/gateway/GWAPI00001', undefined],
      ['GET', `/api/v1/gateway/${id}/serverAddress`, undefined],
      ['POST', `/api/v1/gateway/${id}/alias`, { alias: 'mine' }],
      ['POST', `/api/v1/gateway/${id}/replace`, { newSn: 'GWAPISTEAL', newKey: 'stealkey1' }],
      ['POST', `/api/v1/gateway/${id}/delete`, undefined],
      ['POST', `/api/v1/gateway/${id}/serverAddress`, { host: 'evil.example.com', port: 1883 }],
      ['POST', `/api/v1/gateway/${id}/lock`, undefined],
      ['POST', `/api/v1/gateway/${id}/unlock`, undefined],
      ['POST', `/api/v1/gateway/${id}/digitalOutput`, { on: true }],
      ['POST', `/api/v1/gateway/${id}/connectionPassword`, { password: 'Strong1Pass' }],
      // Even a bad value is answered 305 first: nothing tells a stranger the gateway exists.
      ['POST', `/api/v1/gateway/${id}/alias`, { alias: 'gw#1' }],
      ['POST', `/api/v1/gateway/${id}/connectionPassword`, { password: 'weak' }],
      ['POST', `/api/v1/gateway/${id}/replace`, { newSn: 'bad sn!', newKey: 'k' }],
    ];
    for (const [method, url, json] of probes) {
      const result = await call(server.app, method as 'GET' | 'POST', url, { token: tokenB, json });
      expect({ url, code: result.body.code, data: result.body.data }).toEqual({ url, code: Code.GATEWAY_NOT_FOUND, data: null });
    }
    expect((await get<GatewayPage>('/api/v1/gateways', { token: tokenB, query: { keyword: 'GWAPI' } })).data.total).toBe(0);
  });
});

describe('gateway import', () => {
  it('registers the good rows in the caller’s company and lists each bad row with why', async () => {
    const bytes = await workbook([
      ['SN', 'Registration key', 'Alias'],
      ['GWIMP00001', 'impkey0001', 'Barn'],
      ['GWIMP00002', 'impkey0002', null],
      ['GW IMP 3', 'impkey0003', null],
      ['GWIMP00001', 'impkey0004', null],
      ['GWAPI00002', 'whatever01', null],
      ['GWIMP00005', null, null],
    ]);
    const result = await importFile(tokenA, [{ name: 'gateways.xlsx', bytes }]);
    expect(result.code).toBe(0);
    expect(result.data.imported).toBe(2);
    expect(result.data.errors).toEqual([
      { row: 4, sn: 'GW IMP 3', problem: expect.stringMatching(/2 to 32 letters/) },
      { row: 5, sn: 'GWIMP00001', problem: expect.stringMatching(/more than once/) },
      { row: 6, sn: 'GWAPI00002', problem: expect.stringMatching(/already registered/) },
      { row: 7, sn: 'GWIMP00005', problem: expect.stringMatching(/key is missing/) },
    ]);
    const listed = await get<GatewayPage>('/api/v1/gateways', { token: tokenA, query: { keyword: 'GWIMP' } });
    expect(listed.data.infos.map((g) => [g.sn, g.alias, g.plantId])).toEqual([
      ['GWIMP00001', 'Barn', null],
      ['GWIMP00002', null, null],
    ]);
    // The broker accepts the imported gateway with its key at once.
    const reporter = await connectTestGateway(server.telemetry.mqttPort, 'GWIMP00002', 'impkey0002');
    await reporter.close();
  });

  it('answers the problems in the caller’s language', async () => {
    const bytes = await workbook([['GWIMPDE001', 'abc def']]);
    const body = multipart([{ name: 'g.xlsx', bytes }]);
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/v1/gateways/import',
      headers: { authorization: `Bearer ${tokenA}`, 'content-type': body.contentType, 'accept-language': 'de-DE' },
      payload: body.payload,
    });
    const json = response.json() as { data: GatewayImportResult };
    expect(json.data.errors[0]?.problem).toMatch(/Registrierungsschlüssel/);
  });

  it('refuses a file that is not a workbook, two files, and callers without the permission', async () => {
    expect((await importFile(tokenA, [{ name: 'x.xlsx', bytes: Buffer.from('SN,key\nA,b') }])).code).toBe(Code.IMPORT_FILE_INVALID);
    const ok = await workbook([['GWIMP00009', 'impkey0009']]);
    expect(
      (
        await importFile(tokenA, [
          { name: 'a.xlsx', bytes: ok },
          { name: 'b.xlsx', bytes: ok },
        ])
      ).code,
    ).toBe(Code.IMPORT_FILE_INVALID);
    const guest = await signedInUser(server, 'guest', companyA);
    expect((await importFile(guest.token, [{ name: 'a.xlsx', bytes: ok }])).code).toBe(Code.NO_PERMISSION);
  });
});

describe('settings over the protocol', () => {
  it('changes the server address through a real MQTT gateway and stores what it confirmed', async () => {
    const gw = await answeringGateway('GWAPI00002', 'gwkey00002', settingsKeeper());
    await waitOnline(unboundId);
    const changed = await post<GatewaySettings>(
      `/api/v1/gateway/${unboundId}/serverAddress`,
      { host: 'new.example.com', port: 8883 },
      tokenA,
    );
    expect(changed.code).toBe(0);
    expect(changed.data.serverAddress).toBe('new.example.com:8883');
    expect((await get<ServerAddress>(`/api/v1/gateway/${unboundId}/serverAddress`, tokenA)).data).toEqual({
      host: 'new.example.com',
      port: 8883,
    });
    expect((await post(`/api/v1/gateway/${unboundId}/serverAddress`, { host: 'bad host!', port: 70000 }, tokenA)).code).toBe(
      Code.VALIDATION,
    );
    expect((await get<GatewayCounts>('/api/v1/gateways/count', tokenA)).data.online).toBeGreaterThanOrEqual(1);
    void gw;
  });

  it('locks: a locked gateway refuses other changes until unlocked; the digital output switches', async () => {
    const locked = await post<GatewaySettings>(`/api/v1/gateway/${unboundId}/lock`, {}, tokenA);
    expect(locked.data.locked).toBe(true);
    expect((await get<GatewayPage>('/api/v1/gateways', { token: tokenA, query: { locked: 'true' } })).data.infos.map((g) => g.sn)).toEqual([
      'GWAPI00002',
    ]);
    const refused = await post<{ errors: { message: string }[] }>(`/api/v1/gateway/${unboundId}/digitalOutput`, { on: true }, tokenA);
    expect(refused.code).toBe(Code.VALIDATION);
    expect(refused.data.errors[0]?.message).toMatch(/locked/);
    expect((await post<GatewaySettings>(`/api/v1/gateway/${unboundId}/unlock`, {}, tokenA)).data.locked).toBe(false);
    expect((await post<GatewaySettings>(`/api/v1/gateway/${unboundId}/digitalOutput`, { on: true }, tokenA)).data.digitalOutput).toBe(true);
  });

  it('sets the connection password (8–24, upper, lower, digits) keeping only the time, never the password', async () => {
    expect((await post(`/api/v1/gateway/${unboundId}/connectionPassword`, { password: 'weakpass' }, tokenA)).code).toBe(Code.VALIDATION);
    const set = await post<GatewaySettings>(`/api/v1/gateway/${unboundId}/connectionPassword`, { password: 'Strong1Pass' }, tokenA);
    expect(set.code).toBe(0);
    expect(set.data.connectionPasswordAt).not.toBeNull();
    const entries = await server.database.db.select().from(operationLog).where(eq(operationLog.target, 'GWAPI00002'));
    expect(entries.map((e) => e.action)).toEqual(
      expect.arrayContaining([
        'gateway.serverAddress',
        'gateway.lock',
        'gateway.unlock',
        'gateway.digitalOutput',
        'gateway.connectionPassword',
      ]),
    );
    expect(JSON.stringify(entries)).not.toContain('Strong1Pass');
  });

  it('answers 306 without sending when the gateway is offline', async () => {
    const result = await post(`/api/v1/gateway/${boundId}/serverAddress`, { host: 'x.example.com', port: 1883 }, tokenA);
    expect(result.code).toBe(Code.GATEWAY_OFFLINE);
    expect((await post(`/api/v1/gateway/${boundId}/lock`, {}, tokenA)).code).toBe(Code.GATEWAY_OFFLINE);
  });

  it('stores the settings a gateway reports in its status, so a change made on the gateway itself is seen', async () => {
    const [gateway] = await server.database.db.select({ id: gateways.id }).from(gateways).where(eq(gateways.sn, 'GWAPI00002'));
    const reporter = await connectTestGateway(server.telemetry.mqttPort, 'GWAPI00002', 'gwkey00002');
    const status = { v: 1, online: true, config: { serverAddress: 'eu.example.com:8883', locked: true, digitalOutput: false } };
    await reporter.client.publishAsync(gatewayTopic('GWAPI00002', 'status'), JSON.stringify(status), { qos: 1 });
    await vi.waitFor(
      async () => {
        const [row] = await server.database.db
          .select({ locked: gateways.locked, address: gateways.serverAddress })
          .from(gateways)
          .where(eq(gateways.id, gateway?.id ?? 0));
        if (!row?.locked || row.address !== 'eu.example.com:8883') throw new Error('settings not recorded yet');
      },
      { timeout: 10_000, interval: 50 },
    );
    await reporter.close();
  });

  it('answers 307 and stores nothing when an online gateway does not confirm in time', async () => {
    await answeringGateway('GWAPI00001', 'gwkey00001', () => undefined);
    await waitOnline(boundId);
    const result = await post(`/api/v1/gateway/${boundId}/digitalOutput`, { on: true }, tokenA);
    expect(result.code).toBe(Code.GATEWAY_NO_REPLY);
    const [row] = await server.database.db.select({ d: gateways.digitalOutput }).from(gateways).where(eq(gateways.id, boundId));
    expect(row?.d).toBeNull();
  }, 20_000);
});

describe('replacement and deletion', () => {
  it('refuses to delete a gateway bound to a plant, and deletes an unbound one', async () => {
    const refused = await post<{ errors: { message: string }[] }>(`/api/v1/gateway/${boundId}/delete`, {}, tokenA);
    expect(refused.code).toBe(Code.VALIDATION);
    expect(refused.data.errors[0]?.message).toMatch(/Gateway Test Plant/);
    const [imported] = await server.database.db.select({ id: gateways.id }).from(gateways).where(eq(gateways.sn, 'GWIMP00001'));
    expect((await post(`/api/v1/gateway/${imported?.id}/delete`, {}, tokenA)).code).toBe(0);
    expect((await get('/api/v1/gateway/GWIMP00001', tokenA)).code).toBe(Code.GATEWAY_NOT_FOUND);
  });

  it('replaces a gateway: the new one takes the plant, alias and devices; the old one is unbound', async () => {
    await post(`/api/v1/gateway/${boundId}/alias`, { alias: 'Roof logger' }, tokenA);
    expect((await post(`/api/v1/gateway/${boundId}/replace`, { newSn: 'GWAPI00002', newKey: 'wrongkey' }, tokenA)).code).toBe(
      Code.GATEWAY_REGISTRATION_WRONG,
    );
    expect((await post(`/api/v1/gateway/${boundId}/replace`, { newSn: 'GWAPISHARE', newKey: 'sharekey01' }, tokenA)).code).toBe(
      Code.GATEWAY_USED,
    );
    const replaced = await post<{ id: number; sn: string; movedDevices: number }>(
      `/api/v1/gateway/${boundId}/replace`,
      { newSn: 'GWAPI00003', newKey: 'newkey0003' },
      tokenA,
    );
    expect(replaced.code).toBe(0);
    expect(replaced.data.movedDevices).toBe(1);
    const fresh = await get<GatewayDetail>('/api/v1/gateway/GWAPI00003', tokenA);
    expect(fresh.data).toMatchObject({ plantId, alias: 'Roof logger', devices: [expect.objectContaining({ sn: 'INAPI00001' })] });
    const [old] = await server.database.db.select().from(gateways).where(eq(gateways.id, boundId));
    expect(old).toMatchObject({ plantId: null, replacedById: replaced.data.id });
    const [device] = await server.database.db.select().from(devices).where(eq(devices.sn, 'INAPI00001'));
    expect(device).toMatchObject({ gatewayId: replaced.data.id, plantId });
    // The new gateway reports the device at once under the plant.
    const reporter = await connectTestGateway(server.telemetry.mqttPort, 'GWAPI00003', 'newkey0003');
    await reporter.report(Date.now(), [{ sn: 'INAPI00001', proto: 'sunspec-inverter-3p', values: {} }]);
    await reporter.close();
    expect(
      (await get<GatewayPage>('/api/v1/gateways', { token: adminToken, query: { keyword: 'GWAPI00003' } })).data.infos[0]?.deviceCount,
    ).toBe(1);
  });
});
