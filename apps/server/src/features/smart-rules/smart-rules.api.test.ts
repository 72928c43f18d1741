import { Code } from '@sunward/contracts/codes';
import type { Light, LightOauthStart, RulePlantCheck, RulePreview, SmartRule, SmartRuleRun } from '@sunward/contracts/smart-home';
import { type LightBridge, startLightBridge } from '@sunward/simulator/light-bridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../db/schema.js';
import { apiClient, createPlant, signedInCast, signedInUser } from '../../test/api.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';

let server: TestServer;
let bridge: LightBridge;
let companyAdmin: string;
let otherAdmin: string;
let plantId: number;
let gateway: TestGateway;
let porch: Light;
let garage: Light;
const INVERTER = 'RULEINV0001';

beforeAll(async () => {
  bridge = await startLightBridge();
  server = await startTestServer(bridge.settings);
  let companyId: number;
  ({ companyAdmin, companyId } = await signedInCast(server, 'Rule Company'));
  const otherId = await server.createCompany('Other Rule Company');
  otherAdmin = (await signedInUser(server, 'company_admin', otherId)).token;
  const plant = await createPlant(server, companyAdmin, { name: 'Rule Roof' }, companyId);
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
  for (const app of ['smart_bulb', 'smart_rule']) await post(`/api/v1/component/apps/${app}/enable`, { enabled: true });
  const start = await get<LightOauthStart>('/api/v1/light/oauth');
  const back = new URL((await fetch(start.data.url, { redirect: 'manual' })).headers.get('location') ?? '');
  await post('/api/v1/light/oauth/callback', { code: back.searchParams.get('code'), state: back.searchParams.get('state') });
  const list = (await get<Light[]>('/api/v1/light')).data;
  porch = list.find((l) => l.name === 'Porch') as Light;
  garage = list.find((l) => l.name === 'Garage') as Light;
  await post(`/api/v1/light/${porch.id}/bind`, { plantId });
}, 240_000);
afterAll(async () => {
  await gateway?.close();
  await server?.close();
  await bridge?.close();
});
const { get, post } = apiClient(
  () => server.app,
  () => companyAdmin,
);
const rule = (more: Record<string, unknown> = {}) => ({
  plantId,
  name: 'Surplus porch',
  conditions: { pvSurplus: { aboveW: 2000, minutes: 0 } },
  actions: [{ kind: 'light', deviceId: porch.id, on: true, brightness: 80 }],
  minIntervalMinutes: 5,
  ...more,
});
const reportPower = (w: number) => gateway.report(Date.now(), [{ sn: INVERTER, proto: 'sunspec-inverter-1p', values: { W: w, St: 4 } }]);
const runs = async (id: number) => (await get<SmartRuleRun[]>(`/api/v1/smart/rule/${id}/runs`)).data;

describe('smart rules', () => {
  it('checks the plant and refuses bad rules: brightness 101 (4), a device twice (4412), an unbound bulb (4413), a duplicate name (4411)', async () => {
    expect((await get<RulePlantCheck>('/api/v1/smart/rule/plant/check', { query: { plantId: String(plantId), name: 'x' } })).data).toEqual({
      lights: 1,
      switches: 0,
      nameFree: true,
    });
    const actions = (a: unknown[]) => rule({ actions: a });
    expect((await post('/api/v1/smart/rule', actions([{ kind: 'light', deviceId: porch.id, on: true, brightness: 101 }]))).code).toBe(
      Code.VALIDATION,
    );
    const twice = actions([
      { kind: 'light', deviceId: porch.id, on: true, brightness: 50 },
      { kind: 'light', deviceId: porch.id, on: true, brightness: 60 },
    ]);
    expect((await post('/api/v1/smart/rule', twice)).code).toBe(Code.SMART_RULE_DEVICE_TWICE);
    expect((await post('/api/v1/smart/rule', actions([{ kind: 'light', deviceId: garage.id, on: true }]))).code).toBe(
      Code.SMART_RULE_DEVICE_INVALID,
    );
    expect((await post('/api/v1/smart/rule', rule({ conditions: {} }))).code).toBe(Code.VALIDATION);
    expect((await post('/api/v1/smart/rule', rule({ name: 'Taken' }))).code).toBe(0);
    expect((await post('/api/v1/smart/rule', rule({ name: 'Taken' }))).code).toBe(Code.SMART_RULE_NAME_EXISTS);
    const taken = (await get<SmartRule[]>('/api/v1/smart/rule', { query: { plantId: String(plantId) } })).data.find(
      (r) => r.name === 'Taken',
    );
    expect((await post(`/api/v1/smart/rule/${taken?.id}/delete`, {})).code).toBe(0);
  });

  it('another company sees none of the rules and cannot change them (4410) nor make one for the plant (700)', async () => {
    const created = await post<SmartRule>('/api/v1/smart/rule', rule({ name: 'Private', enabled: false }));
    await post('/api/v1/component/apps/smart_rule/enable', { enabled: true }, otherAdmin);
    expect((await get<SmartRule[]>('/api/v1/smart/rule', { token: otherAdmin })).data).toEqual([]);
    expect((await post(`/api/v1/smart/rule/${created.data.id}/enable`, { enabled: true }, otherAdmin)).code).toBe(
      Code.SMART_RULE_NOT_FOUND,
    );
    expect((await post('/api/v1/smart/rule', rule({ name: 'Intruder' }), otherAdmin)).code).toBe(Code.PLANT_NOT_FOUND);
    expect((await post(`/api/v1/smart/rule/${created.data.id}/delete`, {})).code).toBe(0);
  });

  it('"PV surplus > 2 kW → porch on at 80 %" fires exactly once when the plant crosses it, previewed before', async () => {
    await reportPower(1000);
    const created = await post<SmartRule>('/api/v1/smart/rule', rule());
    expect(created.code).toBe(0);
    const id = created.data.id;
    await expect
      .poll(async () => (await get<RulePreview>(`/api/v1/smart/rule/${id}/preview`)).data.values.pvSurplusW, { timeout: 30_000 })
      .toBe(1000);
    expect((await get<RulePreview>(`/api/v1/smart/rule/${id}/preview`)).data).toMatchObject({
      conditions: { pvSurplus: false },
      wouldFire: false,
    });
    await reportPower(2500);
    await expect.poll(async () => (await runs(id)).length, { timeout: 30_000 }).toBe(1);
    expect(bridge.bulbs.get('1')).toMatchObject({ on: true, bri: 203 });
    // Further updates above the threshold, and a dip within the hysteresis, do not fire again.
    await reportPower(2600);
    await reportPower(1900);
    await reportPower(2700);
    await expect
      .poll(async () => (await get<SmartRule[]>('/api/v1/smart/rule')).data.find((r) => r.id === id)?.active, { timeout: 30_000 })
      .toBe(true);
    expect(await runs(id)).toHaveLength(1);
    expect((await runs(id))[0]).toMatchObject({ outcome: 'ok', results: [{ kind: 'light', deviceId: porch.id, ok: true }] });
  });

  it('after the bridge authorisation is revoked, a firing reports the refusal in the run history', async () => {
    const first = (await get<SmartRule[]>('/api/v1/smart/rule')).data.find((r) => r.name === 'Surplus porch')?.id as number;
    expect((await post<SmartRule>(`/api/v1/smart/rule/${first}/enable`, { enabled: false })).data.enabled).toBe(false);
    const id = (await post<SmartRule>('/api/v1/smart/rule', rule({ name: 'After revoke' }))).data.id;
    expect((await post('/api/v1/light/oauth/revoke', {})).code).toBe(0);
    await reportPower(3000);
    await expect.poll(async () => (await runs(id)).length, { timeout: 30_000 }).toBe(1);
    expect((await runs(id))[0]).toMatchObject({ outcome: 'failed', results: [{ ok: false }] });
    expect((await runs(id))[0]?.results[0]?.message).toMatch(/authorisation/);
  });
});
