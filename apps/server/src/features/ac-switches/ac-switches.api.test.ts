import type {
  AcSwitchCheckResult,
  AcSwitchImportCheck,
  AcSwitchImportResult,
  AcSwitchPage,
  AcSwitchRow,
  AcSwitchSwitchResult,
} from '@sunward/contracts/ac-switches';
import { Code } from '@sunward/contracts/codes';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type EmulatedSwitch, emulateSwitch, type TestGateway } from '../../test/test-gateway.js';

let server: TestServer;
let platform: string;
/** Company A's administrator manages its plant and switches; company B's is the stranger. */
let a: Awaited<ReturnType<typeof signedInUser>>;
let b: Awaited<ReturnType<typeof signedInUser>>;
let plantId: number;
let companyA: number;
let gateway: { sn: string; key: string };
let wire: TestGateway | undefined;

const { get, post } = apiClient(() => server.app);

async function workbook(rows: (string | null)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Switches');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Posts one spreadsheet (and text fields) as multipart form data. */
async function upload<T>(path: string, token: string, bytes: Buffer, fields: Record<string, string> = {}) {
  const boundary = `----sw${Date.now()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="switches.xlsx"\r\ncontent-type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  const response = await server.app.inject({
    method: 'POST',
    url: path,
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(parts),
  });
  return response.json() as { code: number; data: T; message: string };
}

const page = async (token: string, query = '') => (await get<AcSwitchPage>(`/api/v1/acSwitch/getPageBySys?size=100${query}`, token)).data;
const rowOf = async (token: string, sn: string) => (await page(token)).infos.find((r) => r.sn === sn);

beforeAll(async () => {
  server = await startTestServer();
  platform = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  companyA = await server.createCompany('Switch Co A');
  a = await signedInUser(server, 'company_admin', companyA);
  b = await signedInUser(server, 'company_admin', await server.createCompany('Switch Co B'));
  // The AC switch routes answer 4400 until the company enables the smart switch app (application centre).
  for (const admin of [a, b]) await post('/api/v1/component/apps/smart_switch/enable', { enabled: true }, admin.token);
  const plant = await createPlant(server, a.token, { name: 'Switch Test Plant' }, companyA);
  plantId = plant.id;
  gateway = plant.gateway;
});

afterAll(async () => {
  await wire?.close();
  await server?.close();
});

describe('the AC switch registry', () => {
  it('adds a master and a sub switch, refusing a taken SN (4421) and a sub switch without its master (4426)', async () => {
    const master = await post<AcSwitchRow>('/api/v1/acSwitch/add', { sn: 'SWA0001', key: 'masterkey1' }, a.token);
    expect(master.code).toBe(0);
    expect(master.data).toMatchObject({ sn: 'SWA0001', masterSn: null, plantId: null, frequency: 5, state: null, access: 'manage' });
    expect((await post('/api/v1/acSwitch/add', { sn: 'swa0001', key: 'other' }, a.token)).code).toBe(Code.AC_SWITCH_REGISTERED);
    expect((await post('/api/v1/acSwitch/add', { sn: 'SWA0002', key: 'k2', masterSn: 'NOSUCH01' }, a.token)).code).toBe(
      Code.AC_SWITCH_MASTER_INVALID,
    );
    const sub = await post<AcSwitchRow>('/api/v1/acSwitch/add', { sn: 'SWA0002', key: 'k2', masterSn: 'SWA0001' }, a.token);
    expect(sub.data).toMatchObject({ masterSn: 'SWA0001' });
    // A sub switch cannot be a master.
    expect((await post('/api/v1/acSwitch/add', { sn: 'SWA0003', key: 'k3', masterSn: 'SWA0002' }, a.token)).code).toBe(
      Code.AC_SWITCH_MASTER_INVALID,
    );
    expect((await rowOf(a.token, 'SWA0001'))?.subCount).toBe(1);
  });

  it('imports a spreadsheet: good rows registered (masters of the file first), bad rows listed with their row and why', async () => {
    const file = await workbook([
      ['SN', 'Key', 'Master SN'],
      ['SWA0101', 'subkey', 'SWA0100'],
      ['SWA0100', 'masterkey', null],
      ['SWA0001', 'again', null],
      ['x', 'key', null],
      ['SWA0102', 'key', 'UNKNOWN9'],
      ['SWA0100', 'twice', null],
      ['SWA0103', '', null],
    ]);
    const check = await upload<AcSwitchImportCheck>('/api/v1/acSwitch/checkImportEquip', a.token, file);
    expect(check.data.valid.map((v) => v.sn)).toEqual(['SWA0101', 'SWA0100']);
    expect(await rowOf(a.token, 'SWA0100')).toBeUndefined();
    const result = await upload<AcSwitchImportResult>('/api/v1/acSwitch/importBatch', a.token, file);
    expect(result.code).toBe(0);
    expect(result.data.imported).toBe(2);
    expect(result.data.errors.map((e) => [e.row, e.sn, e.problem])).toEqual([
      [4, 'SWA0001', 'alreadyRegistered'],
      [5, 'x', 'snInvalid'],
      [6, 'SWA0102', 'masterMissing'],
      [7, 'SWA0100', 'duplicateInFile'],
      [8, 'SWA0103', 'keyMissing'],
    ]);
    expect(result.data.errors[2]?.message).toBe('the master switch is not registered');
    expect((await rowOf(a.token, 'SWA0101'))?.masterSn).toBe('SWA0100');
    // A customer that is not the company's is refused.
    const stranger = await upload('/api/v1/acSwitch/importBatch', a.token, await workbook([['SWA0200', 'k']]), {
      customerId: String(b.id),
    });
    expect(stranger.code).toBe(Code.AC_SWITCH_USER_INVALID);
  });

  it('keeps tenants apart: another company neither sees, checks, deletes nor attaches to the switches (4420)', async () => {
    expect((await page(b.token)).infos).toEqual([]);
    const own = await rowOf(a.token, 'SWA0100');
    if (!own) throw new Error('missing');
    expect((await post(`/api/v1/acSwitch/${own.id}/delete`, {}, b.token)).code).toBe(Code.AC_SWITCH_NOT_FOUND);
    expect((await post(`/api/v1/acSwitch/${own.id}/updateFrequency`, { frequency: 9 }, b.token)).code).toBe(Code.AC_SWITCH_NOT_FOUND);
    expect((await post<AcSwitchCheckResult>('/api/v1/acSwitch/check', { sn: 'SWA0100', key: 'masterkey' }, b.token)).data).toMatchObject({
      registered: false,
    });
    expect((await post('/api/v1/acSwitch/add', { sn: 'SWB0001', key: 'k', masterSn: 'SWA0100' }, b.token)).code).toBe(
      Code.AC_SWITCH_MASTER_INVALID,
    );
    expect((await post('/api/v1/acSwitch/bindBySn', { sn: 'SWA0100', key: 'masterkey', plantId }, b.token)).code).toBe(
      Code.PLANT_NOT_FOUND,
    );
    // The platform's own calls are the platform administrator's.
    expect((await post('/api/v1/acSwitch/importOneBySys', { sn: 'SWB0002', key: 'k' }, b.token)).code).toBe(Code.NO_PERMISSION);
  });

  it('binds platform stock by SN and key to a plant (4422 wrong key, 4423 already bound), the plant’s company taking it', async () => {
    const stock = await post<AcSwitchRow>('/api/v1/acSwitch/importOneBySys', { sn: 'SWSTOCK1', key: 'stockkey' }, platform);
    expect(stock.data).toMatchObject({ companyId: null, plantId: null });
    expect((await page(platform, '&scope=stock')).infos.map((r) => r.sn)).toContain('SWSTOCK1');
    expect(await rowOf(a.token, 'SWSTOCK1')).toBeUndefined();
    expect((await post<AcSwitchCheckResult>('/api/v1/acSwitch/check', { sn: 'SWSTOCK1', key: 'wrong' }, a.token)).data).toEqual({
      sn: 'SWSTOCK1',
      registered: true,
      keyMatches: false,
      bound: false,
    });
    expect((await post('/api/v1/acSwitch/bindBySn', { sn: 'SWSTOCK1', key: 'wrong', plantId }, a.token)).code).toBe(
      Code.AC_SWITCH_KEY_WRONG,
    );
    const bound = await post<AcSwitchRow>('/api/v1/acSwitch/bindBySn', { sn: 'SWSTOCK1', key: 'stockkey', plantId }, a.token);
    expect(bound.data).toMatchObject({ plantId, plantName: 'Switch Test Plant', companyId: companyA });
    expect((await post('/api/v1/acSwitch/bindBySn', { sn: 'SWSTOCK1', key: 'stockkey', plantId }, a.token)).code).toBe(
      Code.AC_SWITCH_BOUND,
    );
    const byPlant = await get<AcSwitchPage>(`/api/v1/acSwitch/getPageByStation?plantId=${plantId}`, a.token);
    expect(byPlant.data.infos.map((r) => r.sn)).toEqual(['SWSTOCK1']);
    expect((await get(`/api/v1/acSwitch/getPageByStation?plantId=${plantId}`, b.token)).code).toBe(Code.PLANT_NOT_FOUND);
  });

  it('sets the frequency (1–60) and the associated user (a person of the company, 4429 otherwise)', async () => {
    const row = await rowOf(a.token, 'SWSTOCK1');
    if (!row) throw new Error('missing');
    expect((await post(`/api/v1/acSwitch/${row.id}/updateFrequency`, { frequency: 61 }, a.token)).code).toBe(Code.VALIDATION);
    expect((await post(`/api/v1/acSwitch/${row.id}/updateFrequency`, { frequency: 15 }, a.token)).code).toBe(0);
    expect((await post(`/api/v1/acSwitch/${row.id}/updateAssociateUser`, { userId: b.id }, a.token)).code).toBe(
      Code.AC_SWITCH_USER_INVALID,
    );
    expect((await post(`/api/v1/acSwitch/${row.id}/updateAssociateUser`, { userId: a.id }, a.token)).code).toBe(0);
    expect(await rowOf(a.token, 'SWSTOCK1')).toMatchObject({ frequency: 15, associateUserId: a.id, associateAccount: a.account });
  });

  it('refuses to delete a switch in a plant (4424) or a master with sub switches (4425), and deletes the rest', async () => {
    const bound = await rowOf(a.token, 'SWSTOCK1');
    const master = await rowOf(a.token, 'SWA0100');
    const sub = await rowOf(a.token, 'SWA0101');
    if (!bound || !master || !sub) throw new Error('missing');
    expect((await post(`/api/v1/acSwitch/${bound.id}/delete`, {}, a.token)).code).toBe(Code.AC_SWITCH_IN_PLANT);
    expect((await post(`/api/v1/acSwitch/${master.id}/delete`, {}, a.token)).code).toBe(Code.AC_SWITCH_HAS_SUBS);
    expect((await post(`/api/v1/acSwitch/${sub.id}/delete`, {}, a.token)).code).toBe(0);
    expect((await post(`/api/v1/acSwitch/${master.id}/delete`, {}, a.token)).code).toBe(0);
    expect(await rowOf(a.token, 'SWA0100')).toBeUndefined();
  });
});

describe('switching on and off over the gateway protocol', () => {
  /** What the emulated switch does with a Conn write; the reports follow its state. */
  const device: EmulatedSwitch = { sn: 'SWSTOCK1', St: 1, Evt: 0, refuse: false };
  let report: () => Promise<void> = async () => {};

  it('answers 4428 while no gateway reports the switch', async () => {
    const row = await rowOf(a.token, 'SWSTOCK1');
    expect((await post(`/api/v1/acSwitch/${row?.id}/switch`, { on: false, password: a.password }, a.token)).code).toBe(
      Code.AC_SWITCH_NOT_REPORTING,
    );
  });

  it('switches off and on with the password again, the switch confirming each over the real protocol', async () => {
    wire = await connectTestGateway(server.telemetry.mqttPort, gateway.sn, gateway.key);
    report = await emulateSwitch(wire, gateway.sn, device);
    await report();
    await vi.waitFor(async () => expect(await rowOf(a.token, 'SWSTOCK1')).toMatchObject({ state: 'on', online: true }), {
      timeout: 15_000,
      interval: 200,
    });
    const row = await rowOf(a.token, 'SWSTOCK1');
    const path = `/api/v1/acSwitch/${row?.id}/switch`;
    expect((await post(path, { on: false, password: 'wrong-password' }, a.token)).code).toBe(Code.CONFIRM_PASSWORD_WRONG);
    expect((await post(path, { on: false }, b.token)).code).toBe(Code.AC_SWITCH_NOT_FOUND);
    const off = await post<AcSwitchSwitchResult>(path, { on: false, password: a.password }, a.token);
    expect(off.code).toBe(0);
    expect(off.data.state).toBe('off');
    await vi.waitFor(async () => expect((await rowOf(a.token, 'SWSTOCK1'))?.state).toBe('off'), { timeout: 15_000, interval: 200 });
    const on = await post<AcSwitchSwitchResult>(path, { on: true, password: a.password }, a.token);
    expect(on.data.state).toBe('on');
  });

  it('a switch turned off locally is only turned on locally: 4427 before sending, and the switch’s own refusal reads 4427', async () => {
    const row = await rowOf(a.token, 'SWSTOCK1');
    const path = `/api/v1/acSwitch/${row?.id}/switch`;
    // The button opens the switch: it reports St 0 with "switched off by hand".
    device.St = 0;
    device.Evt = 1 << 8;
    await report();
    await vi.waitFor(async () => expect(await rowOf(a.token, 'SWSTOCK1')).toMatchObject({ state: 'off', offLocally: true }), {
      timeout: 15_000,
      interval: 200,
    });
    expect((await post(path, { on: true, password: a.password }, a.token)).code).toBe(Code.AC_SWITCH_OFF_LOCALLY);
    // Switching it off stays allowed; a switch that refuses on its own (its report not yet in) answers the same code.
    device.St = 1;
    device.Evt = 0;
    await report();
    await vi.waitFor(async () => expect((await rowOf(a.token, 'SWSTOCK1'))?.offLocally).toBe(false), { timeout: 15_000, interval: 200 });
    device.refuse = true;
    expect((await post(path, { on: true, password: a.password }, a.token)).code).toBe(Code.AC_SWITCH_OFF_LOCALLY);
  });

  it('a trip reported by the switch shows as tripped and raises its event through the events list; it may be switched on again', async () => {
    device.refuse = false;
    device.St = 2;
    device.Evt = 1 << 6;
    await report();
    await vi.waitFor(async () => expect((await rowOf(a.token, 'SWSTOCK1'))?.state).toBe('tripped'), { timeout: 15_000, interval: 200 });
    await vi.waitFor(
      async () => {
        const events = await get<{ infos: { deviceSn: string; code: number }[] }>(`/api/v1/events?plantId=${plantId}&size=50`, a.token);
        expect(events.data.infos.map((e) => [e.deviceSn, e.code])).toContainEqual(['SWSTOCK1', 7007]);
      },
      { timeout: 15_000, interval: 300 },
    );
    const row = await rowOf(a.token, 'SWSTOCK1');
    const on = await post<AcSwitchSwitchResult>(`/api/v1/acSwitch/${row?.id}/switch`, { on: true, password: a.password }, a.token);
    expect(on.data.state).toBe('on');
  });
});
