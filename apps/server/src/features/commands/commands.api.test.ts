import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { BatchTaskPage } from '@sunward/contracts/batch-tasks';
import { Code } from '@sunward/contracts/codes';
import type { BatchUpgradeResult, CommandResult, UpgradeProgress, WritableParam } from '@sunward/contracts/commands';
import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { protocolById } from '@sunward/protocol/maps/index';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { companies, deviceCommands, deviceRealtime, devices, plants } from '../../db/schema.js';
import { apiClient } from '../../test/api.js';
import { call, multipartBody, signIn } from '../../test/client.js';
import { spawnSimulator, startFleetServer } from '../../test/fleet.js';
import { ADMIN, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';

// The real simulator plays two demo gateways; a third is played by the test itself to answer late.
let server: TestServer;
let fleet: SimulatedFleet;
let simulator: ChildProcess;
let adminToken: string;
let lateGateway: TestGateway;

const { get, post } = apiClient(
  () => server.app,
  () => adminToken,
);
const key = () => `k-${Math.random().toString(36).slice(2)}-${Date.now()}`;

/** Gateways with a string inverter (storage plants have hybrids, whose output includes the battery). */
const withInverter = () => fleet.gateways.filter((g) => !g.spare && g.devices.some((d) => d.family === 'inverter'));

function inverterOf(index: number) {
  const g = withInverter()[index];
  const d = g?.devices.find((x) => x.family === 'inverter');
  if (!g || !d) throw new Error('no inverter');
  return { gateway: g, sn: d.sn, protocolId: d.protocolId };
}

async function powerOf(sn: string) {
  const [row] = await server.database.db
    .select({ ts: deviceRealtime.ts, powerW: deviceRealtime.powerW, status: devices.status })
    .from(deviceRealtime)
    .innerJoin(devices, eq(devices.id, deviceRealtime.deviceId))
    .where(eq(devices.sn, sn));
  return row;
}

beforeAll(async () => {
  ({ server, fleet, adminToken } = await startFleetServer(5, { COMMAND_TIMEOUT_S: '2' }));
  simulator = spawnSimulator(fleet, withInverter().slice(0, 2));
  // Both simulated inverters report (status normal) before the tests command them.
  await vi.waitFor(
    async () => {
      for (const i of [0, 1]) if ((await powerOf(inverterOf(i).sn))?.status !== 1) throw new Error('not reporting yet');
    },
    { timeout: 30_000, interval: 200 },
  );
  // The third gateway: the test reports for its inverter once (so it is online) and answers commands late.
  const third = inverterOf(2);
  lateGateway = await connectTestGateway(server.telemetry.mqttPort, third.gateway.sn, third.gateway.key);
  await lateGateway.report(Date.now(), [{ sn: third.sn, proto: third.protocolId, values: { St: 4 } }]);
  await server.telemetry.pipeline.drain();
});

afterAll(async () => {
  simulator?.kill('SIGTERM');
  await lateGateway?.close();
  await server?.close();
});

describe('the call catalogue', () => {
  it('answers the boot, shutdown, debug and custom-param rows of Inverters and setting support', () => {
    const rows = readFileSync(new URL('../../../../../docs/spec/calls.tsv', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.split('\t'))
      .filter(([, path, area]) => area === 'Inverters' && /\/(boot|shutdown|debug|debug\/reply|custom\/params|support)$/.test(path ?? ''));
    expect(rows.length).toBe(7);
    for (const [method, path] of rows)
      expect(server.app.hasRoute({ method: method as 'GET' | 'POST', url: (path ?? '').replace('{sn}', ':sn') }), `${method} ${path}`).toBe(
        true,
      );
  });
});

describe('boot and shutdown', () => {
  it('asks for the password again to shut down, then the inverter stops producing and boots again', async () => {
    const { sn } = inverterOf(0);
    expect((await post(`/api/v1/inverter/${sn}/shutdown`, { idempotencyKey: key() })).code).toBe(Code.CONFIRM_PASSWORD_WRONG);
    expect((await post(`/api/v1/inverter/${sn}/shutdown`, { idempotencyKey: key(), password: 'wrong-password' })).code).toBe(
      Code.CONFIRM_PASSWORD_WRONG,
    );
    const off = await post<CommandResult>(`/api/v1/inverter/${sn}/shutdown`, { idempotencyKey: key(), password: ADMIN.password });
    expect(off).toMatchObject({ code: 0, data: { status: 'ok' } });
    const sentAt = Date.now();
    await vi.waitFor(
      async () => {
        const r = await powerOf(sn);
        if (!r || r.ts.getTime() <= sentAt || r.powerW !== 0) throw new Error('still producing');
      },
      { timeout: 15_000, interval: 200 },
    );
    const on = await post<CommandResult>(`/api/v1/inverter/${sn}/boot`, { idempotencyKey: key() });
    expect(on).toMatchObject({ code: 0, data: { status: 'ok' } });
    // The spec's GET form: key and password in headers.
    const viaGet = await call<CommandResult>(server.app, 'GET', `/api/v1/inverter/${sn}/boot`, {
      token: adminToken,
      headers: { 'idempotency-key': key() },
    });
    expect(viaGet.body.code).toBe(0);
  });

  it('runs a command once however often the request is retried with the same key', async () => {
    const { sn } = inverterOf(1);
    const k = key();
    const first = await post<CommandResult>(`/api/v1/inverter/${sn}/boot`, { idempotencyKey: k });
    const again = await post<CommandResult>(`/api/v1/inverter/${sn}/boot`, { idempotencyKey: k });
    expect(first.code).toBe(0);
    expect(again.data.commandId).toBe(first.data.commandId);
    const rows = await server.database.db.select().from(deviceCommands).where(eq(deviceCommands.idempotencyKey, k));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ op: 'boot', status: 'ok', account: ADMIN.account, deviceSn: sn });
  });

  it('refuses an offline device (603) and an upgrading one (604) without sending anything', async () => {
    const offline = inverterOf(3).sn;
    expect((await post(`/api/v1/inverter/${offline}/boot`, { idempotencyKey: key() })).code).toBe(Code.DEVICE_OFFLINE);
    const upgrading = inverterOf(4).sn;
    await server.database.db.update(devices).set({ status: 5 }).where(eq(devices.sn, upgrading));
    expect((await post(`/api/v1/inverter/${upgrading}/boot`, { idempotencyKey: key() })).code).toBe(Code.DEVICE_UPGRADING);
    const sent = await server.database.db.select().from(deviceCommands).where(eq(deviceCommands.deviceSn, offline));
    expect(sent).toEqual([]);
  });

  it('times out with a clear result, and keeps a reply that comes later', async () => {
    const third = inverterOf(2);
    lateGateway.client.on('message', (_topic, payload) => {
      const command = JSON.parse(payload.toString()) as { id: string };
      setTimeout(() => {
        void lateGateway.client.publishAsync(
          gatewayTopic(third.gateway.sn, 'reply'),
          JSON.stringify({ v: 1, id: command.id, status: 'ok' }),
          { qos: 1 },
        );
      }, 2500);
    });
    await lateGateway.client.subscribeAsync(gatewayTopic(third.gateway.sn, 'cmd'), { qos: 1 });
    const result = await post<{ commandId: number; message: string }>(`/api/v1/inverter/${third.sn}/boot`, { idempotencyKey: key() });
    expect(result.code).toBe(Code.TIMEOUT);
    expect(result.data.message).toMatch(/2 s/);
    await vi.waitFor(
      async () => {
        const [row] = await server.database.db.select().from(deviceCommands).where(eq(deviceCommands.id, result.data.commandId));
        if (!row?.lateReplyAt) throw new Error('late reply not recorded yet');
        expect(row.status).toBe('timeout');
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});

describe('parameters and remote debug', () => {
  it('lists writable parameters, refuses a value out of range, and writes one confirmed by the device', async () => {
    const { sn } = inverterOf(0);
    const params = await get<WritableParam[]>(`/api/v1/inverter/${sn}/custom/params`);
    expect(params.data.find((p) => p.id === 'WMaxLimPct')).toMatchObject({ min: 0, max: 100, unit: '%' });
    const tooHigh = await post(`/api/v1/inverter/${sn}/custom/params`, {
      params: { WMaxLimPct: 150 },
      idempotencyKey: key(),
      password: ADMIN.password,
    });
    expect(tooHigh.code).toBe(Code.VALIDATION);
    expect(JSON.stringify(tooHigh.data)).toContain('params.WMaxLimPct');
    const written = await post<CommandResult>(`/api/v1/inverter/${sn}/custom/params`, {
      params: { WMaxLimPct: 60 },
      idempotencyKey: key(),
      password: ADMIN.password,
    });
    expect(written).toMatchObject({ code: 0, data: { status: 'ok', values: { WMaxLimPct: 60 }, message: null } });
    expect((await get<{ customParams: boolean }>(`/api/v1/setting/${sn}/support`)).data.customParams).toBe(true);
  });

  it('reads raw registers and decodes them with the map; a write needs the password', async () => {
    const { sn, protocolId } = inverterOf(0);
    const point = protocolById(protocolId)?.points.find((p) => p.id === 'WMaxLimPct');
    if (!point) throw new Error('map');
    const read = await post<CommandResult>(`/api/v1/inverter/${sn}/debug`, {
      fc: point.functionCode,
      addr: point.address,
      count: 1,
      idempotencyKey: key(),
    });
    expect(read.code).toBe(0);
    expect(read.data.hex).toMatch(/^[0-9a-f]{4}$/i);
    const write = await post(`/api/v1/inverter/${sn}/debug`, { fc: 6, addr: point.address, hex: '0032', idempotencyKey: key() });
    expect(write.code).toBe(Code.CONFIRM_PASSWORD_WRONG);
    const stored = await get<{ status: string }>(`/api/v1/inverter/${sn}/debug/reply?commandId=${read.data.commandId}`);
    expect(stored.data.status).toBe('ok');
    expect((await post(`/api/v1/inverter/${sn}/debug`, { fc: 3, addr: 0, idempotencyKey: key() })).code).toBe(Code.VALIDATION);
  });
});

describe('safety and tenants', () => {
  it('caps the devices a company commands per minute', async () => {
    const [plant] = await server.database.db.select({ companyId: plants.companyId }).from(plants).limit(1);
    const companyId = plant?.companyId ?? 0;
    await server.database.db.update(companies).set({ commandCapPerMinute: 1 }).where(eq(companies.id, companyId));
    const user = await server.createUser('company_admin', undefined, { companyId });
    const token = (await signIn(server.app, user.account, user.password)).access_token;
    await server.database.db.execute(sql`delete from device_commands where company_id = ${companyId}`);
    const a = inverterOf(0).sn;
    const b = inverterOf(1).sn;
    expect((await post(`/api/v1/inverter/${a}/boot`, { idempotencyKey: key() }, token)).code).toBe(0);
    const capped = await post(`/api/v1/inverter/${b}/boot`, { idempotencyKey: key() }, token);
    expect(capped.code).toBe(Code.COMMAND_CAP_REACHED);
    expect(capped.message).toContain('1');
    expect((await post(`/api/v1/inverter/${a}/boot`, { idempotencyKey: key() }, token)).code).toBe(0);
    await server.database.db.update(companies).set({ commandCapPerMinute: 100 }).where(eq(companies.id, companyId));
  });

  it('sends nothing to another company’s device (600) and refuses a guest (2)', async () => {
    const other = await server.createCompany('Other Command Company');
    const stranger = await server.createUser('company_admin', undefined, { companyId: other });
    const token = (await signIn(server.app, stranger.account, stranger.password)).access_token;
    const { sn } = inverterOf(0);
    for (const path of ['boot', 'shutdown', 'custom/params', 'debug'])
      expect(
        (
          await post(
            `/api/v1/inverter/${sn}/${path}`,
            { idempotencyKey: key(), password: stranger.password, params: { WMaxLimPct: 50 }, fc: 3, addr: 0, count: 1 },
            token,
          )
        ).code,
        path,
      ).toBe(Code.INVERTER_NOT_FOUND);
    expect((await get(`/api/v1/inverter/${sn}/custom/params`, token)).code).toBe(Code.INVERTER_NOT_FOUND);
    expect((await get(`/api/v1/setting/${sn}/support`, token)).code).toBe(Code.INVERTER_NOT_FOUND);
    const guest = await server.createUser('guest');
    const guestToken = (await signIn(server.app, guest.account, guest.password)).access_token;
    expect((await post(`/api/v1/inverter/${sn}/boot`, { idempotencyKey: key() }, guestToken)).code).toBe(Code.NO_PERMISSION);
  });

  it('keeps every command in the log with who, what and the result', async () => {
    const log = await get<{ infos: { account: string; op: string; status: string }[]; total: number }>('/api/v1/commands?size=100');
    expect(log.data.total).toBeGreaterThan(5);
    expect(log.data.infos.map((r) => r.op)).toEqual(expect.arrayContaining(['boot', 'shutdown', 'set', 'read']));
    expect(JSON.stringify(log.data)).not.toContain(ADMIN.password);
  });
});

/** Uploads an inverter image to the firmware library (as the platform administrator) and enables it. */
async function firmwareRecord(mode: 'remote' | 'local'): Promise<number> {
  const bytes = randomBytes(8192);
  bytes[0] = 0;
  const n = Math.random().toString(36).slice(2, 8);
  const fields = {
    name: `UPG-${n}`,
    manufacturer: 'Sunward',
    product: 'SW-INV',
    swVersion: `9.${n}`,
    type: 'inverter',
    mode,
    fileName: `upg_${n}.bin`,
    md5: createHash('md5').update(bytes).digest('hex'),
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

describe('upgrades', () => {
  it('upgrades an inverter through its gateway: progress to the end, the device checked the image first', async () => {
    const { sn } = inverterOf(1);
    const firmId = await firmwareRecord('remote');
    expect((await post(`/api/v1/inverter/${sn}/upgrade`, { firmId, idempotencyKey: key() })).code).toBe(Code.CONFIRM_PASSWORD_WRONG);
    const started = await post<CommandResult>(`/api/v1/inverter/${sn}/upgrade`, {
      firmId,
      idempotencyKey: key(),
      password: ADMIN.password,
    });
    expect(started).toMatchObject({ code: 0, data: { status: 'pending' } });
    const seen = new Set<string>();
    await vi.waitFor(
      async () => {
        const progress = await get<UpgradeProgress>(`/api/v1/inverter/${sn}/upgrade/progress`);
        seen.add(progress.data.state);
        if (progress.data.state !== 'successful') throw new Error(`still ${progress.data.state} ${progress.data.progress}`);
        expect(progress.data).toMatchObject({ progress: 100, commandId: started.data.commandId });
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(seen.has('upgrading')).toBe(true);
    // The device now reports the new version; upgrading to it again answers 4001.
    await vi.waitFor(
      async () => {
        const [row] = await server.database.db.select({ fw: devices.firmwareVersion }).from(devices).where(eq(devices.sn, sn));
        if (!row?.fw?.startsWith('9.')) throw new Error(`still ${row?.fw}`);
      },
      { timeout: 15_000, interval: 200 },
    );
    expect((await post(`/api/v1/inverter/${sn}/upgrade`, { firmId, idempotencyKey: key(), password: ADMIN.password })).code).toBe(
      Code.FIRMWARE_ALREADY_LATEST,
    );
  });

  it('refuses local-only, disabled or unknown firmware, and cancels a running upgrade', async () => {
    const { sn } = inverterOf(0);
    const local = await firmwareRecord('local');
    expect((await post(`/api/v1/inverter/${sn}/upgrade`, { firmId: local, idempotencyKey: key(), password: ADMIN.password })).code).toBe(
      Code.VALIDATION,
    );
    expect((await post(`/api/v1/inverter/${sn}/upgrade`, { firmId: 999_999, idempotencyKey: key(), password: ADMIN.password })).code).toBe(
      Code.VALIDATION,
    );
    const firmId = await firmwareRecord('remote');
    const started = await post<CommandResult>(`/api/v1/inverter/${sn}/upgrade`, {
      firmId,
      idempotencyKey: key(),
      password: ADMIN.password,
    });
    expect(started.code).toBe(0);
    await vi.waitFor(
      async () => {
        if ((await get<UpgradeProgress>(`/api/v1/inverter/${sn}/upgrade/progress`)).data.progress <= 0) throw new Error('not started yet');
      },
      { timeout: 10_000, interval: 50 },
    );
    expect((await post(`/api/v1/inverter/${sn}/cutUpgrade`, { idempotencyKey: key() })).code).toBe(0);
    await vi.waitFor(
      async () => {
        const progress = await get<UpgradeProgress>(`/api/v1/inverter/${sn}/upgrade/progress`);
        if (progress.data.state !== 'cancelled') throw new Error(`still ${progress.data.state}`);
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});

describe('batch upgrade', () => {
  it('starts the devices that can take the image and lists the others with why', async () => {
    const firmId = await firmwareRecord('remote');
    const online = inverterOf(0).sn;
    const offline = inverterOf(3).sn;
    expect((await post('/api/v1/inverter/batchUpgrade', { sns: [online], firmId })).code).toBe(Code.CONFIRM_PASSWORD_WRONG);
    const batch = await post<BatchUpgradeResult>('/api/v1/inverter/batchUpgrade', {
      sns: [online, offline, 'NOSUCHSN01'],
      firmId,
      password: ADMIN.password,
      idempotencyKey: key(),
    });
    expect(batch.code).toBe(0);
    expect(batch.data.started).toBe(1);
    expect(batch.data.results.map((r) => [r.sn, r.started, r.code])).toEqual([
      [online, true, 0],
      [offline, false, Code.DEVICE_OFFLINE],
      ['NOSUCHSN01', false, Code.INVERTER_NOT_FOUND],
    ]);
    expect(batch.data.results[1]?.message).toMatch(/offline/);
    await vi.waitFor(
      async () => {
        if ((await get<UpgradeProgress>(`/api/v1/inverter/${online}/upgrade/progress`)).data.state !== 'successful')
          throw new Error('not yet');
      },
      { timeout: 20_000, interval: 200 },
    );
  });
});

describe('batch tasks', () => {
  type Task = {
    task: { status: string; pausedReason: string | null };
    items: { sn: string; status: string; message: string | null; wave: number }[];
  };
  const taskOf = async (id: number) => (await get<Task>(`/api/v1/tasks/${id}`)).data;
  const until = (id: number, status: string, timeout = 30_000) =>
    vi.waitFor(
      async () => {
        const t = await taskOf(id);
        if (t.task.status !== status) throw new Error(`task ${t.task.status}: ${JSON.stringify(t.items)}`);
      },
      { timeout, interval: 200 },
    );

  it('runs a batch upgrade to the end: every item in a final state, an offline device failed with why', async () => {
    const firmId = await firmwareRecord('remote');
    const created = await post<{ id: number }>('/api/v1/tasks', {
      name: 'Autumn rollout',
      firmId,
      sns: [inverterOf(0).sn, inverterOf(1).sn, inverterOf(3).sn],
      password: ADMIN.password,
    });
    expect(created.code).toBe(0);
    await until(created.data.id, 'done');
    const done = await taskOf(created.data.id);
    expect(done.items.map((i) => [i.sn, i.status])).toEqual([
      [inverterOf(0).sn, 'successful'],
      [inverterOf(1).sn, 'successful'],
      [inverterOf(3).sn, 'failed'],
    ]);
    expect(done.items[2]?.message).toBe(`code.${Code.DEVICE_OFFLINE}`);
  });

  it('pauses when the canary wave fails beyond the threshold, and runs the rest once restarted', async () => {
    const firmId = await firmwareRecord('remote');
    const created = await post<{ id: number }>('/api/v1/tasks', {
      name: 'Canary first',
      firmId,
      sns: [inverterOf(3).sn, inverterOf(0).sn],
      canaryPercent: 50,
      failureThresholdPercent: 0,
      password: ADMIN.password,
    });
    await until(created.data.id, 'paused');
    const paused = await taskOf(created.data.id);
    expect(paused.task.pausedReason).toBe('canary:1/1');
    expect(paused.items.find((i) => i.wave === 1)?.status).toBe('pending');
    expect((await post(`/api/v1/tasks/${created.data.id}/restart`, {})).code).toBe(0);
    await until(created.data.id, 'done');
    expect((await taskOf(created.data.id)).items.find((i) => i.wave === 1)?.status).toBe('successful');
    // Retry puts the failed item back; it fails again (still offline) and the task ends done.
    expect((await post<{ retried: number }>(`/api/v1/tasks/${created.data.id}/retry`, {})).data.retried).toBe(1);
    await until(created.data.id, 'done');
  });

  it('waits for its time when delayed, can be terminated before, and refuses a wrong password', async () => {
    const firmId = await firmwareRecord('remote');
    expect((await post('/api/v1/tasks', { name: 'x', firmId, sns: ['A'], password: 'nope' })).code).toBe(Code.CONFIRM_PASSWORD_WRONG);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const created = await post<{ id: number }>('/api/v1/tasks', {
      name: 'Tonight',
      firmId,
      sns: [inverterOf(0).sn],
      runAt: later,
      password: ADMIN.password,
    });
    // An immediate task finishing proves the scheduler has made its passes; the delayed one has waited.
    const now = await post<{ id: number }>('/api/v1/tasks', { name: 'Now', firmId, sns: [inverterOf(3).sn], password: ADMIN.password });
    await until(now.data.id, 'done');
    expect((await taskOf(created.data.id)).task.status).toBe('plan');
    // The list answers the contracts' shape: times as ISO strings, item counts per task.
    const list = await get<BatchTaskPage>('/api/v1/tasks');
    expect(list.data.infos.find((t) => t.id === created.data.id)).toMatchObject({ status: 'plan', runAt: later, items: 1, failed: 0 });
    expect(list.data.infos.find((t) => t.id === now.data.id)).toMatchObject({ status: 'done', items: 1 });
    expect((await post(`/api/v1/tasks/${created.data.id}/terminate`, {})).code).toBe(0);
    expect((await taskOf(created.data.id)).task.status).toBe('terminated');
  });
});

describe('settings families', () => {
  it('answers every Device settings families row; a model without the family answers 601', async () => {
    const rows = readFileSync(new URL('../../../../../docs/spec/calls.tsv', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.split('\t'))
      .filter(([, , area]) => area === 'Device settings families');
    expect(rows.length).toBe(20);
    for (const [method, path] of rows)
      expect(server.app.hasRoute({ method: method as 'GET' | 'POST', url: path ?? '' }), `${method} ${path}`).toBe(true);
    const { sn } = inverterOf(0);
    // A string inverter carries the grid group (dy/grid), not a brand's form (settings.api.test.ts covers all ten).
    expect((await get(`/api/v1/asw?sn=${sn}`)).code).toBe(Code.SETTING_NOT_SUPPORTED);
    expect(
      (await post('/api/v1/mt/setting', { sn, values: { WMaxLimPct: 50 }, idempotencyKey: key(), password: ADMIN.password })).code,
    ).toBe(Code.SETTING_NOT_SUPPORTED);
  });

  it('reads and writes a smart switch’s limits through setting/switch, confirmed by the device', async () => {
    const gateway = withInverter()
      .slice(0, 2)
      .find((g) => g.devices.some((d) => d.family === 'ac_switch'));
    const sw = gateway?.devices.find((d) => d.family === 'ac_switch')?.sn;
    if (!sw) throw new Error('the simulated gateways carry no switch');
    await vi.waitFor(
      async () => {
        if ((await powerOf(sw))?.status !== 1) throw new Error('switch not reporting yet');
      },
      { timeout: 15_000, interval: 200 },
    );
    const form = await get<WritableParam[]>(`/api/v1/setting/switch?sn=${sw}`);
    expect(form.data.map((p) => p.id)).toEqual([
      ...['WLim', 'WLimRcl', 'ALim', 'ALimRcl', 'VLimHi', 'VLimHiRcl'],
      ...['VLimLo', 'VLimLoRcl', 'LeakLim', 'LeakLimRcl', 'TmpLim', 'TmpLimRcl'],
    ]);
    // Open and closed values of a limit together (spec 02 §5: open above closed).
    const written = await post<CommandResult>('/api/v1/setting/switch', {
      sn: sw,
      values: { WLim: 20_000, WLimRcl: 18_000 },
      idempotencyKey: key(),
      password: ADMIN.password,
    });
    expect(written).toMatchObject({ code: 0, data: { values: { WLim: 20_000 } } });
    expect(
      (await post('/api/v1/setting/switch', { sn: sw, values: { WLim: 99_999 }, idempotencyKey: key(), password: ADMIN.password })).code,
    ).toBe(Code.VALIDATION);
  });
});
