import type { AcSwitchPage, AcSwitchRow } from '@sunward/contracts/ac-switches';
import { Code } from '@sunward/contracts/codes';
import type { CommandLogPageSchema } from '@sunward/contracts/commands';
import type { RulePlantCheck, SmartRule, SmartRuleRun } from '@sunward/contracts/smart-home';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { devices, users } from '../../db/schema.js';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type EmulatedSwitch, emulateSwitch, type TestGateway } from '../../test/test-gateway.js';

/**
 * Smart rules acting on AC switches (issue 22): a rule switches a switch bound to its plant over the real gateway
 * protocol, for the account that saved it (its password asked when saving), and records the switch's refusals.
 * Also the application centre's gate on the AC switch routes (4400 until the company enables the app).
 */
let server: TestServer;
let platform: string;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let staff: Awaited<ReturnType<typeof signedInUser>>;
let plantId: number;
let companyId: number;
let gateway: TestGateway;
let relay: AcSwitchRow;
const INVERTER = 'RSWINV0001';
const SWITCH = 'SWRULE001';
/** The emulated switch: its state (St 0 off, 1 on), its Evt bits (8: off by hand, 9: off remotely), the Conn writes it received. */
const device: EmulatedSwitch = { sn: SWITCH, St: 0, Evt: 1 << 9, writes: [] };

const { get, post } = apiClient(
  () => server.app,
  () => owner.token,
);
const reportSwitch = () =>
  gateway.report(Date.now(), [{ sn: SWITCH, proto: 'vendor-ac-switch', values: { St: device.St, Evt: device.Evt, Conn: device.St } }]);
const reportPower = (w: number) => gateway.report(Date.now(), [{ sn: INVERTER, proto: 'sunspec-inverter-1p', values: { W: w, St: 4 } }]);
const switchRow = async () =>
  (await get<AcSwitchPage>(`/api/v1/acSwitch/getPageByStation?plantId=${plantId}&size=50`)).data.infos.find((r) => r.sn === SWITCH);
const runs = async (id: number) => (await get<SmartRuleRun[]>(`/api/v1/smart/rule/${id}/runs`)).data;
const rule = (name: string, more: Record<string, unknown> = {}) => ({
  plantId,
  name,
  conditions: { pvSurplus: { aboveW: 2000, minutes: 0 } },
  actions: [{ kind: 'switch', deviceId: relay.id, on: true }],
  minIntervalMinutes: 5,
  password: owner.password,
  ...more,
});

beforeAll(async () => {
  server = await startTestServer();
  platform = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  companyId = await server.createCompany('Switch Rule Company');
  owner = await signedInUser(server, 'company_admin', companyId);
  staff = await signedInUser(server, 'company_staff', companyId);
  const plant = await createPlant(server, owner.token, { name: 'Switch Rule Roof' }, companyId);
  plantId = plant.id;
  await server.database.db.insert(devices).values({
    sn: INVERTER,
    protocolId: 'sunspec-inverter-1p',
    family: 'inverter',
    model: 'sunspec-inverter-1p',
    plantId,
    gatewayId: plant.gateway.id,
  });
  gateway = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
  // The gateway passes Conn writes to the switch, which answers and reports its new state (refusing on when off by hand).
  await emulateSwitch(gateway, plant.gateway.sn, device);
}, 240_000);
afterAll(async () => {
  await gateway?.close();
  await server?.close();
});

describe('the AC switch routes follow the application centre', () => {
  it('answer 4400 until the company enables the smart switch app, then work; the platform keeps its stock regardless', async () => {
    expect((await get('/api/v1/acSwitch/getPageBySys')).code).toBe(Code.APP_NOT_ENABLED);
    expect((await get(`/api/v1/acSwitch/getPageByStation?plantId=${plantId}`)).code).toBe(Code.APP_NOT_ENABLED);
    expect((await post('/api/v1/acSwitch/add', { sn: SWITCH, key: 'rulekey1', plantId })).code).toBe(Code.APP_NOT_ENABLED);
    expect((await post('/api/v1/acSwitch/1/switch', { on: true, password: owner.password })).code).toBe(Code.APP_NOT_ENABLED);
    // The platform administrator is in no company: the stock is theirs with or without any company's app.
    expect((await get('/api/v1/acSwitch/getPageBySys', platform)).code).toBe(0);
    expect((await post('/api/v1/acSwitch/importOneBySys', { sn: 'SWSTOCK77', key: 'stock77' }, platform)).code).toBe(0);
    // Only the company's administrator enables it; then the same calls work.
    expect((await post('/api/v1/component/apps/smart_switch/enable', { enabled: true }, staff.token)).code).toBe(Code.NO_PERMISSION);
    expect((await get('/api/v1/acSwitch/getPageBySys', staff.token)).code).toBe(Code.APP_NOT_ENABLED);
    for (const app of ['smart_switch', 'smart_rule'])
      expect((await post(`/api/v1/component/apps/${app}/enable`, { enabled: true })).code).toBe(0);
    const added = await post<AcSwitchRow>('/api/v1/acSwitch/add', { sn: SWITCH, key: 'rulekey1', plantId });
    expect(added.code).toBe(0);
    relay = added.data;
    expect((await get<AcSwitchPage>('/api/v1/acSwitch/getPageBySys')).data.infos.map((r) => r.sn)).toEqual([SWITCH]);
    await reportSwitch();
    await expect.poll(async () => (await switchRow())?.state, { timeout: 30_000 }).toBe('off');
  });
});

describe('smart rules on AC switches', () => {
  it('offers the plant’s switches and refuses bad switch actions: brightness (4), no or a wrong password (708), an unbound switch (4413)', async () => {
    expect((await get<RulePlantCheck>(`/api/v1/smart/rule/plant/check?plantId=${plantId}`)).data).toMatchObject({ lights: 0, switches: 1 });
    const brightness = await post(
      '/api/v1/smart/rule',
      rule('Bright', { actions: [{ kind: 'switch', deviceId: relay.id, on: true, brightness: 50 }] }),
    );
    expect(brightness.code).toBe(Code.VALIDATION);
    expect((await post('/api/v1/smart/rule', rule('No password', { password: undefined }))).code).toBe(Code.CONFIRM_PASSWORD_WRONG);
    expect((await post('/api/v1/smart/rule', rule('Wrong password', { password: 'not-the-password' }))).code).toBe(
      Code.CONFIRM_PASSWORD_WRONG,
    );
    expect(
      (await post('/api/v1/smart/rule', rule('Unbound', { actions: [{ kind: 'switch', deviceId: relay.id + 1000, on: true }] }))).code,
    ).toBe(Code.SMART_RULE_DEVICE_INVALID);
    expect((await get<SmartRule[]>('/api/v1/smart/rule')).data).toEqual([]);
  });

  it('"PV surplus > 2 kW → switch on" switches the real switch on exactly once, audited as the saver’s command', async () => {
    await reportPower(1000);
    const created = await post<SmartRule>('/api/v1/smart/rule', rule('Surplus relay'));
    expect(created.code).toBe(0);
    const id = created.data.id;
    expect(JSON.stringify(created.data)).not.toContain(owner.password);
    await reportPower(2500);
    await expect.poll(async () => (await runs(id)).length, { timeout: 30_000 }).toBe(1);
    expect((await runs(id))[0]).toMatchObject({ outcome: 'ok', results: [{ kind: 'switch', deviceId: relay.id, ok: true }] });
    expect(device.writes).toEqual([1]);
    await expect.poll(async () => (await switchRow())?.state, { timeout: 30_000 }).toBe('on');
    // More reports above the threshold do not fire again (the rule stays active).
    await reportPower(2600);
    await reportPower(2700);
    await expect
      .poll(async () => (await get<SmartRule[]>('/api/v1/smart/rule')).data.find((r) => r.id === id)?.active, { timeout: 30_000 })
      .toBe(true);
    expect(await runs(id)).toHaveLength(1);
    expect(device.writes).toEqual([1]);
    // The command audit keeps it like any console command, naming the rule beside its account.
    const log = await get<z.infer<typeof CommandLogPageSchema>>(`/api/v1/commands?sn=${SWITCH}`, platform);
    expect(log.data.infos).toHaveLength(1);
    expect(log.data.infos[0]).toMatchObject({ op: 'set', status: 'ok', request: { params: { Conn: 1 } } });
    expect(log.data.infos[0]?.account).toBe(`${owner.account} (rule #${id})`);
    expect((await post(`/api/v1/smart/rule/${id}/enable`, { enabled: false })).code).toBe(0);
  });

  it('a switch turned off by hand: the run records 4427 with its reason, nothing is sent, and the rule does not flap', async () => {
    await reportPower(500);
    device.St = 0;
    device.Evt = 1 << 8;
    await reportSwitch();
    await expect.poll(async () => (await switchRow())?.offLocally, { timeout: 30_000 }).toBe(true);
    const id = (await post<SmartRule>('/api/v1/smart/rule', rule('Hand off'))).data.id;
    await reportPower(2500);
    await expect.poll(async () => (await runs(id)).length, { timeout: 30_000 }).toBe(1);
    const [run] = await runs(id);
    expect(run).toMatchObject({ outcome: 'failed', results: [{ kind: 'switch', ok: false, code: Code.AC_SWITCH_OFF_LOCALLY }] });
    expect(run?.results[0]?.message).toMatch(/locally/);
    expect(device.writes).toEqual([1]);
    await reportPower(2600);
    await reportPower(2400);
    await expect
      .poll(async () => (await get<SmartRule[]>('/api/v1/smart/rule')).data.find((r) => r.id === id)?.active, { timeout: 30_000 })
      .toBe(true);
    expect(await runs(id)).toHaveLength(1);
    expect((await post(`/api/v1/smart/rule/${id}/enable`, { enabled: false })).code).toBe(0);
  });

  it('a switch no gateway reports yet: the run records 4428 and nothing is sent', async () => {
    await reportPower(500);
    const silent = await post<AcSwitchRow>('/api/v1/acSwitch/add', { sn: 'SWRULE002', key: 'rulekey2', plantId });
    expect(silent.code).toBe(0);
    const id = (
      await post<SmartRule>('/api/v1/smart/rule', rule('Silent', { actions: [{ kind: 'switch', deviceId: silent.data.id, on: true }] }))
    ).data.id;
    await reportPower(2500);
    await expect.poll(async () => (await runs(id)).length, { timeout: 30_000 }).toBe(1);
    expect((await runs(id))[0]).toMatchObject({ outcome: 'failed', results: [{ ok: false, code: Code.AC_SWITCH_NOT_REPORTING }] });
    expect(device.writes).toEqual([1]);
    expect((await post(`/api/v1/smart/rule/${id}/enable`, { enabled: false })).code).toBe(0);
  });

  it('once the account it acts for is disabled, a firing is refused with 4414 and nothing is sent', async () => {
    device.St = 0;
    device.Evt = 1 << 9;
    await reportSwitch();
    await expect.poll(async () => (await switchRow())?.offLocally, { timeout: 30_000 }).toBe(false);
    await reportPower(500);
    // A second administrator saves the rule (it acts for them), then their account is disabled.
    const second = await signedInUser(server, 'company_admin', companyId);
    const id = (await post<SmartRule>('/api/v1/smart/rule', rule('Gone account', { password: second.password }), second.token)).data.id;
    await server.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, second.id));
    await reportPower(2500);
    await expect.poll(async () => (await runs(id)).length, { timeout: 30_000 }).toBe(1);
    expect((await runs(id))[0]).toMatchObject({ outcome: 'failed', results: [{ ok: false, code: Code.SMART_RULE_ACTOR_INVALID }] });
    expect((await runs(id))[0]?.results[0]?.message).toMatch(/may no longer switch/);
    expect(device.writes).toEqual([1]);
  });
});
