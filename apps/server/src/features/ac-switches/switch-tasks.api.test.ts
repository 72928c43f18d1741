import type { AcSwitchTaskHistory, AcSwitchTasks } from '@sunward/contracts/ac-switch-tasks';
import type { AcSwitchRow } from '@sunward/contracts/ac-switches';
import { Code } from '@sunward/contracts/codes';
import { CommandPayloadSchema, gatewayTopic } from '@sunward/contracts/gateway-protocol';
import { localDayOf } from '@sunward/contracts/plant-energy';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';
import { isoWeekday } from './switch-task-schedule.js';
import { createSwitchTasksRepository } from './switch-tasks.repository.js';

/*
 * Timed tasks of an AC switch through the API and the real scheduler: a switch in a plant in Asia/Kolkata,
 * reported by a gateway over MQTT that answers on/off. An occurrence's time "comes" by moving the stored next
 * run into the past (the scheduler passes every 5 s), so no test waits for a wall-clock minute.
 */

const ZONE = 'Asia/Kolkata';
let server: TestServer;
let a: Awaited<ReturnType<typeof signedInUser>>;
let b: Awaited<ReturnType<typeof signedInUser>>;
let switchId: number;
let loose: number;
let wire: TestGateway | undefined;
let plantId: number;
/** Report intervals written to the emulated switch. */
const written: number[] = [];
/**
 * The emulated switch: its contacts, whether it has been opened with its own button, and its self-check (the
 * verdict, the leakage measured, how many done; `broken`: its residual-current protection does not trip).
 */
const device = { St: 1, Evt: 0, LeakTestRes: 0, LeakTestMa: 0, LeakTestCnt: 0, broken: false };

const { get, post, del } = apiClient(() => server.app);
const tasks = async () => (await get<AcSwitchTasks>(`/api/v1/acSwitch/${switchId}/tasks`, a.token)).data.tasks;
const history = async () => (await get<AcSwitchTaskHistory>(`/api/v1/acSwitch/${switchId}/tasks/history?size=50`, a.token)).data;
const rowOf = async () =>
  (await get<{ infos: AcSwitchRow[] }>('/api/v1/acSwitch/getPageBySys?size=100', a.token)).data.infos.find((r) => r.id === switchId);

/** The plant-local date and HH:MM some minutes from now. */
function localIn(minutes: number): { date: string; time: string } {
  const at = Date.now() + minutes * 60_000;
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return { date: localDayOf(at, ZONE), time };
}

/** Makes a task due now, as if its time had come (the scheduler runs it at its next pass). */
const arrive = (taskId: number, agoMs = 0) =>
  server.database.db.execute(
    sql`update ac_switch_tasks set next_run_at = ${new Date(Date.now() - agoMs).toISOString()} where id = ${taskId}`,
  );

/** Waits until the task's run is in the history as `expected` (the scheduler passes every 5 s). */
const ranAs = (taskId: number, expected: Record<string, unknown>) =>
  vi.waitFor(async () => expect((await history()).infos.find((r) => r.taskId === taskId)).toMatchObject(expected), {
    timeout: 30_000,
    interval: 250,
  });

const report = () =>
  wire?.report(Date.now(), [
    {
      sn: 'SWTASK1',
      proto: 'vendor-ac-switch',
      values: {
        St: device.St,
        Evt: device.Evt,
        Conn: device.St,
        LeakTestRes: device.LeakTestRes,
        LeakTestMa: device.LeakTestMa,
        LeakTestCnt: device.LeakTestCnt,
      },
    },
  ]);

/**
 * LeakTest=1 as the switch plays it (apps/simulator/src/ac-switch.ts, shortened): refused `locked` unless closed;
 * confirmed at once, then a healthy switch reports itself open (the cut), then closed again with passed; a broken
 * one stays closed and reports failed with its self-test alarm (Evt bit 11).
 */
async function leakTest(): Promise<Record<string, unknown>> {
  if (device.St !== 1) return { status: 'error', error: 'locked', message: 'the switch is open' };
  setTimeout(async () => {
    if (!device.broken) {
      device.St = 0;
      await report()?.catch(() => undefined);
      device.St = 1;
    }
    device.LeakTestRes = device.broken ? 2 : 1;
    device.LeakTestMa = device.broken ? 30 : 24;
    device.LeakTestCnt += 1;
    device.Evt = device.broken ? 1 << 11 : 0;
    await report()?.catch(() => undefined);
  }, 300);
  return { status: 'ok', values: { LeakTest: 1 } };
}

beforeAll(async () => {
  server = await startTestServer();
  const company = await server.createCompany('Task Switch Co');
  a = await signedInUser(server, 'company_admin', company);
  b = await signedInUser(server, 'company_admin', await server.createCompany('Task Stranger Co'));
  for (const admin of [a, b]) await post('/api/v1/component/apps/smart_switch/enable', { enabled: true }, admin.token);
  const plant = await createPlant(server, a.token, { name: 'Kolkata Switch Plant', timezone: ZONE }, company);
  plantId = plant.id;
  switchId = (await post<AcSwitchRow>('/api/v1/acSwitch/add', { sn: 'SWTASK1', key: 'taskkey1', plantId: plant.id }, a.token)).data.id;
  loose = (await post<AcSwitchRow>('/api/v1/acSwitch/add', { sn: 'SWTASK2', key: 'taskkey2' }, a.token)).data.id;
  wire = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
  const client = wire.client;
  client.on('message', async (_topic, payload) => {
    const command = CommandPayloadSchema.parse(JSON.parse(payload.toString('utf8')));
    if (command.op === 'set' && command.params?.LeakTest === 1) {
      const reply = await leakTest();
      await client
        .publishAsync(gatewayTopic(plant.gateway.sn, 'reply'), JSON.stringify({ v: 1, id: command.id, ...reply }), { qos: 1 })
        .catch(() => undefined);
      return;
    }
    const interval = command.params?.RptIntv;
    if (command.op === 'set' && interval !== undefined) {
      written.push(interval);
      const reply = { status: 'ok', values: { RptIntv: interval } };
      await client
        .publishAsync(gatewayTopic(plant.gateway.sn, 'reply'), JSON.stringify({ v: 1, id: command.id, ...reply }), { qos: 1 })
        .catch(() => undefined);
      return;
    }
    const conn = command.params?.Conn;
    const answer =
      command.op !== 'set' || conn === undefined
        ? { status: 'error', error: 'unsupported' }
        : conn === 1 && device.St === 0 && device.Evt === 1 << 8
          ? { status: 'error', error: 'locked' }
          : { status: 'ok', values: { Conn: conn } };
    if (answer.status === 'ok') {
      device.St = conn ?? device.St;
      device.Evt = conn === 0 ? 1 << 9 : 0;
    }
    void client
      .publishAsync(gatewayTopic(plant.gateway.sn, 'reply'), JSON.stringify({ v: 1, id: command.id, ...answer }), { qos: 1 })
      .then(report)
      .catch(() => undefined);
  });
  await client.subscribeAsync(gatewayTopic(plant.gateway.sn, 'cmd'), { qos: 1 });
  await report();
  await vi.waitFor(async () => expect(await rowOf()).toMatchObject({ state: 'on', online: true }), { timeout: 15_000, interval: 200 });
});

afterAll(async () => {
  await wire?.close();
  await server?.close();
});

describe('timed tasks of an AC switch', () => {
  it('adds single and repeat tasks in the plant’s zone with their next run, the password again', async () => {
    const soon = localIn(90);
    const path = `/api/v1/acSwitch/${switchId}/tasks`;
    expect((await post(path, { kind: 'single', on: false, ...soon, password: 'wrong-password' }, a.token)).code).toBe(
      Code.CONFIRM_PASSWORD_WRONG,
    );
    const single = await post<{ id: number }>(path, { kind: 'single', on: false, ...soon, password: a.password }, a.token);
    expect(single.code).toBe(0);
    const repeat = await post<{ id: number }>(
      path,
      {
        kind: 'repeat',
        on: true,
        weekdays: [1, 2, 3, 4, 5, 6, 7].filter((d) => d !== isoWeekday(soon.date)),
        time: soon.time,
        password: a.password,
      },
      a.token,
    );
    expect(repeat.code).toBe(0);
    const listed = await tasks();
    const first = listed.find((t) => t.id === single.data.id);
    expect(first).toMatchObject({ kind: 'single', on: false, date: soon.date, time: soon.time, enabled: true, timeZone: ZONE });
    // 90 minutes from now, to the minute (the local time has no seconds).
    expect(Math.abs(Date.parse(first?.nextRunAt ?? '') - (Date.now() + 90 * 60_000))).toBeLessThan(61_000);
    expect(listed.find((t) => t.id === repeat.data.id)?.weekdays).toHaveLength(6);
  });

  it('refuses bad tasks and changes nothing: past, overlapping, no plant, bad time, strangers', async () => {
    const path = `/api/v1/acSwitch/${switchId}/tasks`;
    const before = (await tasks()).length;
    const past = localIn(-5);
    expect((await post(path, { kind: 'single', on: true, ...past, password: a.password }, a.token)).code).toBe(Code.AC_SWITCH_TASK_PAST);
    const soon = localIn(90);
    // The single task of the first test runs at this date and time already.
    expect((await post(path, { kind: 'single', on: true, ...soon, password: a.password }, a.token)).code).toBe(Code.AC_SWITCH_TASK_OVERLAP);
    expect(
      (await post(path, { kind: 'repeat', on: true, weekdays: [isoWeekday(soon.date)], time: soon.time, password: a.password }, a.token))
        .code,
    ).toBe(Code.AC_SWITCH_TASK_OVERLAP);
    expect((await post(path, { kind: 'repeat', on: true, weekdays: [], time: '07:00', password: a.password }, a.token)).code).toBe(
      Code.VALIDATION,
    );
    expect((await post(path, { kind: 'single', on: true, date: soon.date, time: '24:10', password: a.password }, a.token)).code).toBe(
      Code.VALIDATION,
    );
    expect(
      (
        await post(
          `/api/v1/acSwitch/${loose}/tasks`,
          { kind: 'repeat', on: true, weekdays: [1], time: '07:00', password: a.password },
          a.token,
        )
      ).code,
    ).toBe(Code.AC_SWITCH_NOT_IN_PLANT);
    expect((await post(path, { kind: 'repeat', on: true, weekdays: [1], time: '07:00', password: b.password }, b.token)).code).toBe(
      Code.AC_SWITCH_NOT_FOUND,
    );
    expect((await get(path, b.token)).code).toBe(Code.AC_SWITCH_NOT_FOUND);
    expect((await del(`${path}/${(await tasks())[0]?.id}`, b.token)).code).toBe(Code.AC_SWITCH_NOT_FOUND);
    expect((await tasks()).length).toBe(before);
  });

  it('runs a due occurrence once, the switch confirming over the real protocol, and moves a repeat task to its next day', async () => {
    const soon = localIn(30);
    const made = await post<{ id: number }>(
      `/api/v1/acSwitch/${switchId}/tasks`,
      { kind: 'repeat', on: false, weekdays: [1, 2, 3, 4, 5, 6, 7], time: soon.time, password: a.password },
      a.token,
    );
    expect(made.code).toBe(0);
    await arrive(made.data.id);
    await vi.waitFor(
      async () => expect((await history()).infos.find((r) => r.taskId === made.data.id)).toMatchObject({ outcome: 'done', on: false }),
      { timeout: 30_000, interval: 250 },
    );
    await vi.waitFor(async () => expect((await rowOf())?.state).toBe('off'), { timeout: 15_000, interval: 200 });
    const run = (await history()).infos.find((r) => r.taskId === made.data.id);
    expect(run?.commandId).toEqual(expect.any(Number));
    // Moved on: its next run is in the future, within a day; the occurrence ran once.
    const task = (await tasks()).find((t) => t.id === made.data.id);
    const next = Date.parse(task?.nextRunAt ?? '');
    expect(next).toBeGreaterThan(Date.now());
    expect(next - Date.now()).toBeLessThan(24 * 3_600_000 + 60_000);
    expect((await history()).infos.filter((r) => r.taskId === made.data.id)).toHaveLength(1);
    await del(`/api/v1/acSwitch/${switchId}/tasks/${made.data.id}`, a.token);
  });

  it('a run left under way by a stopped server is recorded failed (timeout) once it is older than any run can last', async () => {
    const repository = createSwitchTasksRepository(server.database.db);
    const aged = (kind: string, minutes: number) =>
      repository.addRun({
        taskId: null,
        switchId,
        kind,
        on: false,
        scheduledFor: new Date(Date.now() - minutes * 60_000),
        outcome: 'running',
        code: null,
        commandId: null,
        result: null,
      });
    const setAt = (id: number, minutes: number) =>
      server.database.db.execute(
        sql`update ac_switch_task_runs set at = ${new Date(Date.now() - minutes * 60_000).toISOString()} where id = ${id}`,
      );
    const stale = await aged('repeat', 20);
    const fresh = await aged('repeat', 1);
    const check = await aged('selfcheck', 20);
    await setAt(stale, 20);
    await setAt(fresh, 1);
    await setAt(check, 20);
    const now = Date.now();
    expect(await repository.abandonRuns(new Date(now - 15 * 60_000), new Date(now - 130 * 60_000), Code.TIMEOUT)).toBe(1);
    const runs = (await history()).infos;
    expect(runs.find((r) => r.id === stale)).toMatchObject({ outcome: 'failed', code: Code.TIMEOUT });
    // Still possibly under way: an on/off run of a minute ago, a self-check waiting for a verdict for 20 minutes.
    expect(runs.find((r) => r.id === fresh)?.outcome).toBe('running');
    expect(runs.find((r) => r.id === check)?.outcome).toBe('running');
    await server.database.db.execute(sql`delete from ac_switch_task_runs where id in (${stale}, ${fresh}, ${check})`);
  });

  it('a switch turned off locally is not turned on by a task: the run is refused with 4427', async () => {
    device.St = 0;
    device.Evt = 1 << 8;
    await report();
    await vi.waitFor(async () => expect((await rowOf())?.offLocally).toBe(true), { timeout: 15_000, interval: 200 });
    const made = await post<{ id: number }>(
      `/api/v1/acSwitch/${switchId}/tasks`,
      { kind: 'single', on: true, ...localIn(45), password: a.password },
      a.token,
    );
    await arrive(made.data.id);
    await vi.waitFor(
      async () =>
        expect((await history()).infos.find((r) => r.taskId === made.data.id)).toMatchObject({
          outcome: 'refused',
          code: Code.AC_SWITCH_OFF_LOCALLY,
        }),
      { timeout: 30_000, interval: 250 },
    );
    // A single task that has run has no next run.
    expect((await tasks()).find((t) => t.id === made.data.id)?.nextRunAt).toBeNull();
    expect((await rowOf())?.state).toBe('off');
  });

  it('an occurrence missed by more than the grace window is recorded as missed and not run late', async () => {
    device.St = 1;
    device.Evt = 0;
    await report();
    const made = await post<{ id: number }>(
      `/api/v1/acSwitch/${switchId}/tasks`,
      { kind: 'single', on: false, ...localIn(50), password: a.password },
      a.token,
    );
    await arrive(made.data.id, 20 * 60_000);
    await vi.waitFor(
      async () =>
        expect((await history()).infos.find((r) => r.taskId === made.data.id)).toMatchObject({ outcome: 'missed', commandId: null }),
      { timeout: 30_000, interval: 250 },
    );
    expect((await history()).infos.find((r) => r.taskId === made.data.id)?.message).toMatch(/not running/);
    await vi.waitFor(async () => expect((await rowOf())?.state).toBe('on'), { timeout: 15_000, interval: 200 });
  });

  it('turns a task off and on again, and deletes it (4433 afterwards)', async () => {
    const [task] = await tasks();
    const id = task?.id ?? 0;
    const base = `/api/v1/acSwitch/${switchId}/tasks/${id}`;
    expect((await post(`${base}/enabled`, { enabled: false }, a.token)).code).toBe(0);
    expect((await tasks()).find((t) => t.id === id)).toMatchObject({ enabled: false, nextRunAt: null });
    expect((await post(`${base}/enabled`, { enabled: true }, a.token)).code).toBe(0);
    expect((await tasks()).find((t) => t.id === id)?.nextRunAt).not.toBeNull();
    expect((await del(base, a.token)).code).toBe(0);
    expect((await del(base, a.token)).code).toBe(Code.AC_SWITCH_TASK_NOT_FOUND);
  });

  it('self-check now: the password again, the switch cuts and closes, and the verdict (passed, its leakage) is in the history', async () => {
    device.St = 1;
    device.Evt = 0;
    await report();
    await vi.waitFor(async () => expect((await rowOf())?.state).toBe('on'), { timeout: 15_000, interval: 200 });
    const path = `/api/v1/acSwitch/${switchId}/selfCheck`;
    expect((await post(path, { password: 'wrong-password' }, a.token)).code).toBe(Code.CONFIRM_PASSWORD_WRONG);
    expect((await post(path, { password: b.password }, b.token)).code).toBe(Code.AC_SWITCH_NOT_FOUND);
    const started = await post<{ runId: number; commandId: number }>(path, { password: a.password }, a.token);
    expect(started.code).toBe(0);
    expect(started.data.commandId).toEqual(expect.any(Number));
    await vi.waitFor(
      async () =>
        expect((await history()).infos.find((r) => r.id === started.data.runId)).toMatchObject({
          kind: 'selfcheck',
          taskId: null,
          outcome: 'done',
          code: null,
          selfCheck: { passed: true, leakageMa: 24 },
        }),
      { timeout: 20_000, interval: 250 },
    );
    expect((await rowOf())?.state).toBe('on');
  });

  it('a monthly self-check task runs the test via the scheduler; a broken switch fails it and raises its self-test alarm', async () => {
    device.broken = true;
    const made = await post<{ id: number }>(
      `/api/v1/acSwitch/${switchId}/tasks`,
      { kind: 'selfcheck', monthDay: 28, time: '03:17', password: a.password },
      a.token,
    );
    expect(made.code).toBe(0);
    const task = (await tasks()).find((t) => t.id === made.data.id);
    expect(task).toMatchObject({ kind: 'selfcheck', monthDay: 28, time: '03:17', on: false });
    expect(Date.parse(task?.nextRunAt ?? '')).toBeGreaterThan(Date.now());
    await arrive(made.data.id);
    await ranAs(made.data.id, { kind: 'selfcheck', outcome: 'done', selfCheck: { passed: false, leakageMa: 30 } });
    // Moved on to the 28th of a month, in the plant's zone.
    expect(Date.parse((await tasks()).find((t) => t.id === made.data.id)?.nextRunAt ?? '')).toBeGreaterThan(Date.now());
    // The switch's own alarm (Evt bit 11, residual current self-test failed) through the events fan-out.
    await vi.waitFor(
      async () => {
        const events = await get<{ infos: { deviceSn: string; code: number }[] }>(`/api/v1/events?plantId=${plantId}&size=50`, a.token);
        expect(events.data.infos.map((e) => [e.deviceSn, e.code])).toContainEqual(['SWTASK1', 7012]);
      },
      { timeout: 15_000, interval: 300 },
    );
    await del(`/api/v1/acSwitch/${switchId}/tasks/${made.data.id}`, a.token);
    device.broken = false;
  });

  it('a self-check is refused while the switch is off (4438, nothing sent; the switch refuses too) and the task’s run records it', async () => {
    device.St = 0;
    device.Evt = 1 << 9;
    await report();
    await vi.waitFor(async () => expect((await rowOf())?.state).toBe('off'), { timeout: 15_000, interval: 200 });
    expect((await post(`/api/v1/acSwitch/${switchId}/selfCheck`, { password: a.password }, a.token)).code).toBe(
      Code.AC_SWITCH_SELFCHECK_OFF,
    );
    const made = await post<{ id: number }>(
      `/api/v1/acSwitch/${switchId}/tasks`,
      { kind: 'selfcheck', monthDay: 27, time: '04:41', password: a.password },
      a.token,
    );
    await arrive(made.data.id);
    await ranAs(made.data.id, { outcome: 'refused', code: Code.AC_SWITCH_SELFCHECK_OFF, selfCheck: null });
    // A second monthly self-check on the same day and minute overlaps.
    expect(
      (await post(`/api/v1/acSwitch/${switchId}/tasks`, { kind: 'selfcheck', monthDay: 27, time: '04:41', password: a.password }, a.token))
        .code,
    ).toBe(Code.AC_SWITCH_TASK_OVERLAP);
  });

  it('the upload frequency is written to the switch (its report interval) when it reports; a switch that does not is only stored', async () => {
    const saved = await post<{ written: boolean }>(`/api/v1/acSwitch/${switchId}/updateFrequency`, { frequency: 15 }, a.token);
    expect(saved).toMatchObject({ code: 0, data: { written: true } });
    expect(written).toEqual([15]);
    expect((await rowOf())?.frequency).toBe(15);
    const stored = await post<{ written: boolean }>(`/api/v1/acSwitch/${loose}/updateFrequency`, { frequency: 20 }, a.token);
    expect(stored).toMatchObject({ code: 0, data: { written: false } });
    expect(written).toEqual([15]);
  });
});
