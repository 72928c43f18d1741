import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code } from '@sunward/contracts/codes';
import type { BatchUpgradeCheck, BatchUpgradeResult, CommandResult, UpgradeProgress } from '@sunward/contracts/commands';
import type { SimulatedFleet, SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deviceRealtime, devices, firmware, gateways } from '../../db/schema.js';
import { apiClient } from '../../test/api.js';
import { multipartBody, signIn } from '../../test/client.js';
import { spawnSimulator, startFleetServer } from '../../test/fleet.js';
import { ADMIN, type TestServer } from '../../test/harness.js';

// Battery, gateway and inverter upgrades played end to end by the real simulator, whose devices hold the
// platform's public key and verify every image's signature before applying it.
let server: TestServer;
let fleet: SimulatedFleet;
let adminToken: string;
let keyFile: string;
const simulators: ChildProcess[] = [];

const { get, post } = apiClient(
  () => server.app,
  () => adminToken,
);
const key = () => `k-${Math.random().toString(36).slice(2)}-${Date.now()}`;

/** The storage plant: a hybrid inverter and a battery bank of a master with slave packs. */
const bankGateway = () => fleet.gateways.find((g) => !g.spare && g.devices.some((d) => d.parentSn)) as SimulatedGateway;
const stringGateway = () => fleet.gateways.find((g) => !g.spare && g.devices.some((d) => d.family === 'inverter')) as SimulatedGateway;
/** A third gateway no simulator plays until a test starts one: offline meanwhile. */
const quietGateway = () =>
  fleet.gateways.find((g) => !g.spare && g !== bankGateway() && g !== stringGateway() && g.devices.length > 0) as SimulatedGateway;
const master = () => bankGateway().devices.find((d) => d.family === 'battery' && !d.parentSn)?.sn ?? '';
const slave = () => bankGateway().devices.find((d) => d.parentSn)?.sn ?? '';

function simulate(gatewaysToPlay: SimulatedGateway[]): void {
  simulators.push(spawnSimulator(fleet, gatewaysToPlay, { firmwareKey: keyFile }));
}

async function statusOf(sn: string) {
  const [row] = await server.database.db
    .select({ status: devices.status, fw: devices.firmwareVersion })
    .from(devices)
    .leftJoin(deviceRealtime, eq(deviceRealtime.deviceId, devices.id))
    .where(eq(devices.sn, sn));
  return row;
}

/** A remote image of the main library (gateway or inverter), enabled. */
async function libraryImage(type: 'gateway' | 'inverter', extra: Record<string, string> = {}): Promise<number> {
  const bytes = randomBytes(4096);
  bytes[0] = 0;
  const n = Math.random().toString(36).slice(2, 8);
  const fields = {
    name: `UPG-${type}-${n}`,
    manufacturer: 'Sunward',
    product: type === 'gateway' ? 'SWG-4G' : 'SW-INV',
    swVersion: `8.${n}`,
    type,
    mode: 'remote',
    fileName: `upg_${n}.bin`,
    md5: createHash('md5').update(bytes).digest('hex'),
    ...extra,
  };
  const { payload, contentType } = multipartBody(fields, { name: fields.fileName, bytes });
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/v1/firmware',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': contentType },
    payload,
  });
  const created = response.json() as { code: number; data: { id: number } };
  if (created.code !== 0) throw new Error(JSON.stringify(created));
  await post(`/api/v1/firmware/${created.data.id}/enable`, { enabled: true });
  return created.data.id;
}

/** A remote battery image with its type labels and product (the battery firmware library). */
async function batteryImage(): Promise<number> {
  const n = Math.random().toString(36).slice(2, 8);
  const primary = await post<{ id: number }>('/api/v1/firmware/batteryType/add', { name: `LFP-${n}` });
  const secondary = await post<{ id: number }>('/api/v1/firmware/batteryType/add', { name: `Rack-${n}`, parentId: primary.data.id });
  const product = await post<{ id: number }>('/api/v1/battery/product', {
    name: `Bank-${n}`,
    manufacturer: 'Sunward',
    model: `B-${n}`,
    batteryTypeId: secondary.data.id,
  });
  const bytes = randomBytes(4096);
  bytes[0] = 0;
  const fields = {
    name: `BMS-${n}`,
    batteryTypeId: String(secondary.data.id),
    batteryProductId: String(product.data.id),
    swVersion: `7.${n}`,
    mode: 'remote',
    fileName: `bms_${n}.bin`,
    md5: createHash('md5').update(bytes).digest('hex'),
  };
  const { payload, contentType } = multipartBody(fields, { name: fields.fileName, bytes });
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/v1/firmware/battery/save',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': contentType },
    payload,
  });
  const created = response.json() as { code: number; data: { id: number } };
  if (created.code !== 0) throw new Error(JSON.stringify(created));
  await post(`/api/v1/firmware/battery/${created.data.id}/enable`, { enabled: true });
  return created.data.id;
}

async function finalState(path: string): Promise<UpgradeProgress> {
  let last: UpgradeProgress | null = null;
  await vi.waitFor(
    async () => {
      last = (await get<UpgradeProgress | null>(path)).data;
      if (!last || last.state === 'upgrading' || last.state === 'waiting') throw new Error(`still ${last?.state}`);
    },
    { timeout: 30_000, interval: 150 },
  );
  return last as unknown as UpgradeProgress;
}

async function workbookRows(url: string): Promise<string[][]> {
  const response = await server.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${adminToken}`, 'accept-language': 'en' },
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('spreadsheetml');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  const rows: string[][] = [];
  // Row values are sparse (empty cells are holes): Array.from fills them so columns keep their places.
  book.worksheets[0]?.eachRow((row) =>
    rows.push(
      Array.from(row.values as unknown[])
        .slice(1)
        .map((v) => (v === null || v === undefined ? '' : String(v))),
    ),
  );
  return rows;
}

beforeAll(async () => {
  ({ server, fleet, adminToken } = await startFleetServer(7, { COMMAND_TIMEOUT_S: '5' }));
  const publicKey = (await get<{ publicKey: string }>('/api/v1/firmware/publicKey')).data.publicKey;
  keyFile = join(mkdtempSync(join(tmpdir(), 'sunward-key-')), 'firmware.pem');
  writeFileSync(keyFile, publicKey);
  simulate([stringGateway(), bankGateway()]);
  await vi.waitFor(
    async () => {
      for (const sn of [master(), stringGateway().devices.find((d) => d.family === 'inverter')?.sn ?? ''])
        if ((await statusOf(sn))?.status !== 1) throw new Error(`${sn} not reporting yet`);
    },
    { timeout: 30_000, interval: 200 },
  );
});

afterAll(async () => {
  for (const child of simulators) child.kill('SIGTERM');
  await server?.close();
});

describe('the call catalogue', () => {
  it('answers the battery upgrade rows of Firmware and the gateway upgrade calls', () => {
    const rows = readFileSync(new URL('../../../../../docs/spec/calls.tsv', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.split('\t'))
      .filter(([, path, area]) => area === 'Firmware' && /batchUpgrade|batteriesDown|\/upgrade$/.test(path ?? ''));
    expect(rows.length).toBe(4);
    for (const [method, path] of [...rows, ['POST', '/api/v1/gateway/{sn}/upgrade'], ['GET', '/api/v1/gateway/{sn}/upgrade/progress']])
      expect(server.app.hasRoute({ method: method as 'GET' | 'POST', url: (path ?? '').replace('{sn}', ':sn') }), `${method} ${path}`).toBe(
        true,
      );
  });
});

describe('battery upgrades', () => {
  it('checks a batch first: the master can, a slave cannot (605), an unknown SN is not found (602)', async () => {
    const firmId = await batteryImage();
    const check = await post<BatchUpgradeCheck>('/api/v1/battery/batchUpgrade/check', { sns: [master(), slave(), 'BT9999999'], firmId });
    expect(check.code).toBe(0);
    expect(check.data.ready).toBe(1);
    expect(check.data.results.map((r) => [r.sn, r.code])).toEqual([
      [master(), 0],
      [slave(), Code.BATTERY_SLAVE],
      ['BT9999999', Code.DEVICE_NOT_FOUND],
    ]);
    expect(check.data.results[1]?.message).toMatch(/master/);
    // An inverter image is not a battery image.
    const inverterImage = await libraryImage('inverter');
    expect((await post('/api/v1/battery/batchUpgrade/check', { sns: [master()], firmId: inverterImage })).code).toBe(Code.VALIDATION);
  });

  it('upgrades the master pack through its gateway to the end; a slave is refused; the same version again answers 4001', async () => {
    const firmId = await batteryImage();
    expect((await post(`/api/v1/battery/${slave()}/upgrade`, { firmId, password: ADMIN.password, idempotencyKey: key() })).code).toBe(
      Code.BATTERY_SLAVE,
    );
    const started = await post<CommandResult>(`/api/v1/battery/${master()}/upgrade?firmId=${firmId}`, {
      password: ADMIN.password,
      idempotencyKey: key(),
    });
    expect(started).toMatchObject({ code: 0, data: { status: 'pending' } });
    const done = await finalState(`/api/v1/inverter/${master()}/upgrade/progress`);
    expect(done).toMatchObject({ state: 'successful', progress: 100, commandId: started.data.commandId });
    const [record] = await server.database.db.select({ v: firmware.swVersion }).from(firmware).where(eq(firmware.id, firmId));
    await vi.waitFor(
      async () => {
        if ((await statusOf(master()))?.fw !== record?.v) throw new Error('new version not reported yet');
      },
      { timeout: 15_000, interval: 200 },
    );
    expect((await post(`/api/v1/battery/${master()}/upgrade`, { firmId, password: ADMIN.password, idempotencyKey: key() })).code).toBe(
      Code.FIRMWARE_ALREADY_LATEST,
    );
  });

  it('batch-upgrades batteries with the password once, listing the slave with why', async () => {
    const firmId = await batteryImage();
    expect((await post('/api/v1/battery/batchUpgrade', { sns: [master(), slave()], firmId, password: 'wrong' })).code).toBe(
      Code.CONFIRM_PASSWORD_WRONG,
    );
    const batch = await post<BatchUpgradeResult>('/api/v1/battery/batchUpgrade', {
      sns: [master(), slave()],
      firmId,
      password: ADMIN.password,
    });
    expect(batch.data.started).toBe(1);
    expect(batch.data.results.find((r) => r.sn === slave())).toMatchObject({ started: false, code: Code.BATTERY_SLAVE });
    expect(await finalState(`/api/v1/inverter/${master()}/upgrade/progress`)).toMatchObject({ state: 'successful' });
  });

  it('downloads the batteries with master, slave and firmware version (batteriesDown)', async () => {
    const rows = await workbookRows('/api/v1/batteriesDown');
    expect(rows[0]).toEqual(expect.arrayContaining(['SN', 'Master SN', 'Firmware version']));
    const slaveRow = rows.find((r) => r[0] === slave());
    expect(slaveRow?.[1]).toBe(master());
    expect(rows.find((r) => r[0] === master())?.[1]).toBe('');
  });
});

describe('compatibility and signatures', () => {
  it('refuses an image whose compatible range excludes the device’s current version (4010), and skips it in a task', async () => {
    const sn = stringGateway().devices.find((d) => d.family === 'inverter')?.sn ?? '';
    const current = (await statusOf(sn))?.fw;
    expect(current).toBeTruthy();
    const firmId = await libraryImage('inverter', { swCompatible: '>=99.0.0' });
    expect((await post(`/api/v1/inverter/${sn}/upgrade`, { firmId, password: ADMIN.password, idempotencyKey: key() })).code).toBe(
      Code.FIRMWARE_INCOMPATIBLE,
    );
    const task = await post<{ id: number }>('/api/v1/tasks', { name: 'never fits', firmId, sns: [sn], password: ADMIN.password });
    const detail = await get<{ items: { sn: string; status: string; message: string | null }[] }>(`/api/v1/tasks/${task.data.id}`);
    expect(detail.data.items).toEqual([expect.objectContaining({ sn, status: 'skipped', message: `code.${Code.FIRMWARE_INCOMPATIBLE}` })]);
  });

  it('the device refuses an image whose signature does not verify, so nothing is applied', async () => {
    const sn = stringGateway().devices.find((d) => d.family === 'inverter')?.sn ?? '';
    const before = (await statusOf(sn))?.fw;
    const firmId = await libraryImage('inverter');
    const other = await libraryImage('inverter');
    // A signature of another image: valid Ed25519, wrong message.
    const [signed] = await server.database.db.select({ s: firmware.signature }).from(firmware).where(eq(firmware.id, other));
    await server.database.db
      .update(firmware)
      .set({ signature: signed?.s ?? '' })
      .where(eq(firmware.id, firmId));
    const started = await post<CommandResult>(`/api/v1/inverter/${sn}/upgrade`, {
      firmId,
      password: ADMIN.password,
      idempotencyKey: key(),
    });
    expect(started.code).toBe(0);
    const done = await finalState(`/api/v1/inverter/${sn}/upgrade/progress`);
    expect(done).toMatchObject({ state: 'failed' });
    expect(done.message).toMatch(/signature/);
    expect((await statusOf(sn))?.fw).toBe(before);
  });
});

describe('gateway upgrades', () => {
  it('upgrades an online gateway; its status then reports the new version', async () => {
    const sn = stringGateway().sn;
    const firmId = await libraryImage('gateway');
    const [record] = await server.database.db.select({ v: firmware.swVersion }).from(firmware).where(eq(firmware.id, firmId));
    const started = await post<CommandResult>(`/api/v1/gateway/${sn}/upgrade`, { firmId, password: ADMIN.password, idempotencyKey: key() });
    expect(started).toMatchObject({ code: 0, data: { status: 'pending' } });
    expect(await finalState(`/api/v1/gateway/${sn}/upgrade/progress`)).toMatchObject({ state: 'successful', progress: 100 });
    await vi.waitFor(
      async () => {
        const [row] = await server.database.db.select({ fw: gateways.fwVersion }).from(gateways).where(eq(gateways.sn, sn));
        if (row?.fw !== record?.v) throw new Error(`still ${row?.fw}`);
      },
      { timeout: 15_000, interval: 200 },
    );
    expect((await post(`/api/v1/gateway/${sn}/upgrade`, { firmId, password: ADMIN.password, idempotencyKey: key() })).code).toBe(
      Code.FIRMWARE_ALREADY_LATEST,
    );
  });

  it('queues the upgrade of an offline gateway and runs it once the gateway comes online', async () => {
    const quiet = quietGateway();
    const firmId = await libraryImage('gateway');
    const queued = await post<CommandResult>(`/api/v1/gateway/${quiet.sn}/upgrade`, {
      firmId,
      password: ADMIN.password,
      idempotencyKey: key(),
    });
    expect(queued).toMatchObject({ code: 0, data: { status: 'queued' } });
    expect((await get<UpgradeProgress>(`/api/v1/gateway/${quiet.sn}/upgrade/progress`)).data).toMatchObject({ state: 'waiting' });
    // A second upgrade while one waits is refused as busy.
    expect((await post(`/api/v1/gateway/${quiet.sn}/upgrade`, { firmId, password: ADMIN.password, idempotencyKey: key() })).code).toBe(
      Code.DEVICE_UPGRADING,
    );
    simulate([quiet]);
    expect(await finalState(`/api/v1/gateway/${quiet.sn}/upgrade/progress`)).toMatchObject({ state: 'successful' });
  });

  it('hides another company’s gateway (305) and asks a guest for nothing it may not do', async () => {
    const firmId = await libraryImage('gateway');
    const company = await server.createCompany(`Other ${key()}`);
    const outsider = await server.createUser('company_admin', undefined, { companyId: company });
    const token = (await signIn(server.app, outsider.account, outsider.password)).access_token;
    const answer = await post(
      `/api/v1/gateway/${stringGateway().sn}/upgrade`,
      { firmId, password: outsider.password, idempotencyKey: key() },
      token,
    );
    expect(answer.code).toBe(Code.GATEWAY_NOT_FOUND);
  });
});

describe('upgrade records', () => {
  it('filters the records by status and exports them with their results in the caller’s language', async () => {
    const ok = await get<{ infos: { op: string; status: string }[]; total: number }>('/api/v1/commands?op=upgrade&status=ok&size=100');
    expect(ok.data.total).toBeGreaterThan(0);
    expect(ok.data.infos.every((r) => r.op === 'upgrade' && r.status === 'ok')).toBe(true);
    const rows = await workbookRows('/api/v1/commands/export?status=ok,error');
    expect(rows[0]).toEqual(expect.arrayContaining(['Time (UTC)', 'Device SN', 'Target version', 'Result']));
    expect(rows.slice(1).some((r) => r.includes(master()) && r.includes('Successful'))).toBe(true);
    expect(rows.slice(1).some((r) => r.includes('Failed'))).toBe(true);
  });
});
