import { Code } from '@sunward/contracts/codes';
import {
  addDays,
  type BenefitsAnswer,
  type Compare,
  type DeviceCount,
  type EnergyBars,
  type Generation,
  type IncomeSummary,
  localDayOf,
  localDayStart,
  type Performance,
  type PlantEventCount,
  type PlantEventPage,
  type PlantInverter,
  type PlantRealtime,
  type PowerDay,
  type Use,
  type Weather,
} from '@sunward/contracts/plant-energy';
import { DEFAULT_BENEFIT_FACTORS, type EnergyFlow, type PlantCreate } from '@sunward/contracts/plants';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceEvents, devices, gateways, plantPredictions } from '../../db/schema.js';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { call, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';

// A zone without daylight saving at UTC+0, so the hours below are the plant's own hours.
const ZONE = 'Africa/Abidjan';
const HOUR = 3_600_000;

let server: TestServer;
let adminToken: string;
let storage: number;
let storageGatewaySn: string;
let grid: number;
const testGateways: TestGateway[] = [];
const today = localDayOf(Date.now(), ZONE);
const yesterday = addDays(today, -1);
const at = (day: string, hour: number) => localDayStart(day, ZONE) + hour * HOUR;
// Now, but never before today's midnight (a run at 00:00:02 must not report into yesterday).
const nowTs = () => Math.max(Date.now() - 5000, localDayStart(today, ZONE) + 1000);

/** The overview's test plants: 10 kWp, net metering, in ZONE (a tariff each). */
const PLANT: Partial<PlantCreate> = {
  capacityKwp: 10,
  plantType: 1,
  latitude: 5.36,
  longitude: -4.01,
  timezone: ZONE,
  meteringTopology: 'net',
  tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
};

async function addDevices(plantId: number, gatewayId: number, list: { sn: string; protocolId: string; family: string }[]) {
  await server.database.db.insert(devices).values(list.map((d) => ({ ...d, plantId, gatewayId, model: d.protocolId })));
}

/**
 * Yesterday at 10, 11 and 12 o'clock and once now. Storage plant: hybrid inverter (PV counter +6 kWh
 * yesterday, +1 kWh today), battery (charged 1.5 kWh, discharged 0.5 kWh), meter (imported 1 kWh,
 * exported 2.5 kWh yesterday; exported 0.3 kWh today), weather station (800 W/m² for three hours).
 */
const STORAGE_HOURS = [
  {
    hour: 10,
    hy: { W: 3000, BatW: -1000, WH: 100_000 },
    bt: { W: -1000, ChaWH: 30_000, DisChaWH: 10_000 },
    mt: { W: -1500, imp: 50_000, exp: 20_000 },
  },
  {
    hour: 11,
    hy: { W: 4000, BatW: -500, WH: 103_000 },
    bt: { W: -500, ChaWH: 31_000, DisChaWH: 10_200 },
    mt: { W: -2000, imp: 50_400, exp: 21_000 },
  },
  {
    hour: 12,
    hy: { W: 4500, BatW: 0, WH: 106_000 },
    bt: { W: 0, ChaWH: 31_500, DisChaWH: 10_500 },
    mt: { W: -1000, imp: 51_000, exp: 22_500 },
  },
];

const { get } = apiClient(
  () => server.app,
  () => adminToken,
);

beforeAll(async () => {
  server = await startTestServer();
  adminToken = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;

  const s = await createPlant(server, adminToken, {
    ...PLANT,
    name: 'Storage Test Plant',
    plantType: 3,
    tariff: { currency: 'EUR', pricingMethod: 'generation', feedInPrice: 0.1, selfUsePrice: 0.3, totalInvestment: 10_000 },
  });
  storage = s.id;
  storageGatewaySn = s.gateway.sn;
  await addDevices(s.id, s.gateway.id, [
    { sn: 'PEHY000001', protocolId: 'sunspec-hybrid-lv', family: 'hybrid_inverter' },
    { sn: 'PEBT000001', protocolId: 'sunspec-battery-bms', family: 'battery' },
    { sn: 'PEMT000001', protocolId: 'sunspec-meter-3p', family: 'meter' },
    { sn: 'PEWS000001', protocolId: 'sunspec-weather-station', family: 'weather_station' },
  ]);
  const sc = await connectTestGateway(server.telemetry.mqttPort, s.gateway.sn, s.gateway.key);
  testGateways.push(sc);
  for (const h of STORAGE_HOURS)
    await sc.report(at(yesterday, h.hour), [
      { sn: 'PEHY000001', proto: 'sunspec-hybrid-lv', values: { ...h.hy, St: 4 } },
      { sn: 'PEBT000001', proto: 'sunspec-battery-bms', values: { ...h.bt, SoC: 60 } },
      { sn: 'PEMT000001', proto: 'sunspec-meter-3p', values: { W: h.mt.W, TotWhImp: h.mt.imp, TotWhExp: h.mt.exp } },
      { sn: 'PEWS000001', proto: 'sunspec-weather-station', values: { POAI: 800, TmpAmb: 24 } },
    ]);
  await sc.report(nowTs(), [
    { sn: 'PEHY000001', proto: 'sunspec-hybrid-lv', values: { W: 2500, BatW: 500, WH: 107_000, St: 4 } },
    { sn: 'PEBT000001', proto: 'sunspec-battery-bms', values: { W: 500, SoC: 64, ChaWH: 31_500, DisChaWH: 10_500 } },
    { sn: 'PEMT000001', proto: 'sunspec-meter-3p', values: { W: -800, TotWhImp: 51_000, TotWhExp: 22_800 } },
    { sn: 'PEWS000001', proto: 'sunspec-weather-station', values: { POAI: 500, TmpAmb: 21.5, WndSpd: 4, RH: 40 } },
  ]);

  // Grid plant: one inverter, no meter; a time-of-use tariff (00–12 at 0.10, 12–24 at 0.30).
  const g = await createPlant(server, adminToken, {
    ...PLANT,
    name: 'Grid Test Plant',
    tariff: {
      currency: 'EUR',
      pricingMethod: 'tou',
      segments: [
        { start: '00:00', end: '12:00', price: 0.1 },
        { start: '12:00', end: '24:00', price: 0.3 },
      ],
    },
  });
  grid = g.id;
  await addDevices(g.id, g.gateway.id, [{ sn: 'PEIN000001', protocolId: 'sunspec-inverter-1p', family: 'inverter' }]);
  const gc = await connectTestGateway(server.telemetry.mqttPort, g.gateway.sn, g.gateway.key);
  testGateways.push(gc);
  await gc.report(at(yesterday, 9), [{ sn: 'PEIN000001', proto: 'sunspec-inverter-1p', values: { W: 1000, WH: 5000, St: 4 } }]);
  await gc.report(at(yesterday, 15), [{ sn: 'PEIN000001', proto: 'sunspec-inverter-1p', values: { W: 2000, WH: 9000, St: 4 } }]);
  await server.telemetry.pipeline.drain();

  await server.database.db.insert(plantPredictions).values({ plantId: storage, day: yesterday, energyWh: 7000 });
  const [hybrid] = await server.database.db.select({ id: devices.id }).from(devices).where(eq(devices.sn, 'PEHY000001'));
  if (!hybrid) throw new Error('no hybrid');
  await server.database.db.insert(deviceEvents).values([
    { deviceId: hybrid.id, plantId: storage, code: 1001, level: 'fault', openedAt: new Date(at(yesterday, 11)) },
    {
      deviceId: hybrid.id,
      plantId: storage,
      code: 1002,
      level: 'warning',
      openedAt: new Date(at(yesterday, 10)),
      clearedAt: new Date(at(yesterday, 12)),
    },
  ]);
});

afterAll(async () => {
  await Promise.all(testGateways.map((g) => g.close()));
  await server?.close();
});

describe('realtime and energy flow', () => {
  it('shows PV power now (battery taken off the hybrid’s output) and energy adding up from today to lifetime', async () => {
    const body = await get<PlantRealtime>(`/api/v1/plant/${storage}/realtime`);
    expect(body.code).toBe(0);
    const r = body.data;
    expect(r.powerW).toBe(2000);
    expect(r.capacityKwp).toBe(10);
    expect(r.energyTodayWh).toBe(1000);
    expect(r.energyMonthWh).toBe(today.slice(0, 7) === yesterday.slice(0, 7) ? 7000 : 1000);
    expect(r.energyYearWh).toBe(today.slice(0, 4) === yesterday.slice(0, 4) ? 7000 : 1000);
    // Lifetime: the hybrid's own counter (107 kWh), more than the 7 kWh measured here.
    expect(r.energyTotalWh).toBe(107_000);
    expect(r.specificYieldToday).toBeCloseTo(0.1);
    expect(r.ts).not.toBeNull();
  });

  it('lists the same PV power as the overview: a hybrid’s battery discharge is not counted as PV', async () => {
    const list = await get<{ records: { id: number; powerW: number | null }[] }>('/api/v1/plants?page=1&size=50');
    expect(list.data.records.find((p) => p.id === storage)?.powerW).toBe(2000);
  });

  it('derives the energy flow: selling to the grid, battery discharging, load = PV + grid + battery', async () => {
    const flow = (await get<EnergyFlow>(`/api/v1/plant/${storage}/energy/flow`)).data;
    expect(flow).toMatchObject({
      pvW: 2000,
      gridW: -800,
      batteryW: 500,
      soc: 64,
      loadW: 1700,
      gridState: 'selling',
      batteryState: 'discharging',
      hasBattery: true,
      hasMeter: true,
    });
    const gridOnly = (await get<EnergyFlow>(`/api/v1/plant/${grid}/energy/flow`)).data;
    expect(gridOnly).toMatchObject({ hasBattery: false, hasMeter: false, gridW: null, loadW: null, gridState: 'idle' });
  });
});

describe('power curves and energy bars', () => {
  it('sums the day’s power on a 5-minute grid and gives the day’s measured and predicted energy', async () => {
    const day = (await get<PowerDay>(`/api/v1/plant/${storage}/power/day?date=${yesterday}`)).data;
    expect(day.points).toEqual([
      [at(yesterday, 10), 4000],
      [at(yesterday, 11), 4500],
      [at(yesterday, 12), 4500],
    ]);
    expect(day).toMatchObject({ date: yesterday, energyWh: 6000, predictedWh: 7000, timezone: ZONE });
    const empty = (await get<PowerDay>(`/api/v1/plant/${storage}/power/day?date=2001-01-01`)).data;
    expect(empty).toMatchObject({ points: [], energyWh: null, predictedWh: null });
  });

  it('gives bars by day, month and year whose sums agree', async () => {
    const month = (await get<EnergyBars>(`/api/v1/plant/${storage}/power/month?month=${yesterday.slice(0, 7)}`)).data;
    expect(month.bars.find((b) => b.key === yesterday)).toEqual({ key: yesterday, energyWh: 6000, predictedWh: 7000 });
    expect(month.bars.length).toBeGreaterThanOrEqual(28);
    const year = (await get<EnergyBars>(`/api/v1/plant/${storage}/power/year?year=${yesterday.slice(0, 4)}`)).data;
    expect(year.bars).toHaveLength(12);
    expect(year.bars.find((b) => b.key === yesterday.slice(0, 7))?.energyWh).toBe(month.totalWh);
    const total = (await get<EnergyBars>(`/api/v1/plant/${storage}/power/total`)).data;
    expect(total.totalWh).toBe(7000);
    expect(total.bars.at(-1)?.key).toBe(today.slice(0, 4));
    expect(total.bars.reduce((s, b) => s + (b.energyWh ?? 0), 0)).toBe(7000);
    expect(total.predictedTotalWh).toBe(7000);
  });

  it('refuses a malformed date with code 4 naming the field', async () => {
    const bad = await call<{ errors: { field: string }[] }>(server.app, 'GET', `/api/v1/plant/${storage}/power/day?date=2024-13-01`, {
      token: adminToken,
    });
    expect(bad.body.code).toBe(Code.VALIDATION);
    expect(bad.body.data.errors[0]?.field).toBe('date');
    expect((await get(`/api/v1/plant/${storage}/power/month?month=2024-1`)).code).toBe(Code.VALIDATION);
  });
});

describe('generation and use', () => {
  it('splits yesterday’s generation into self-use and export, use into PV, battery and grid, adding up', async () => {
    const gen = (await get<Generation>(`/api/v1/plant/${storage}/generation/day?date=${yesterday}`)).data;
    expect(gen.metered).toBe(true);
    expect(gen.totals).toEqual({ generationWh: 6000, selfUseWh: 3500, exportWh: 2500 });
    // At 10:00: PV 4,000 W, exporting 1,500 W.
    expect(gen.points[0]).toEqual([at(yesterday, 10), 2500, 1500]);
    for (const [, selfUse, exported] of gen.points) expect(selfUse + exported).toBeGreaterThan(0);
    const use = (await get<Use>(`/api/v1/plant/${storage}/use/day?date=${yesterday}`)).data;
    // Load = 6,000 + 1,000 − 2,500 + 500 − 1,500.
    expect(use.totals).toEqual({ loadWh: 3500, fromPvWh: 2000, fromBatteryWh: 500, fromGridWh: 1000 });
    // At 10:00: load = 4,000 − 1,500 − 1,000 = 1,500 W, all from PV.
    expect(use.points[0]).toEqual([at(yesterday, 10), 1500, 0, 0]);
  });

  it('adds the days up over the month, the year and the lifetime', async () => {
    const month = (await get<Generation>(`/api/v1/plant/${storage}/generation/month?month=${today.slice(0, 7)}`)).data;
    const sum = month.bars.reduce((s, b) => s + b.generationWh, 0);
    expect(sum).toBe(month.totals.generationWh);
    const todayBar = month.bars.find((b) => b.key === today);
    // Today: 1 kWh generated, 0.3 kWh exported.
    expect(todayBar).toEqual({ key: today, generationWh: 1000, selfUseWh: 700, exportWh: 300 });
    const total = (await get<Use>(`/api/v1/plant/${storage}/use/total`)).data;
    expect(total.bars.reduce((s, b) => s + (b.loadWh ?? 0), 0)).toBe(total.totals.loadWh);
    const { fromPvWh, fromBatteryWh, fromGridWh, loadWh } = total.totals;
    expect((fromPvWh ?? 0) + (fromBatteryWh ?? 0) + (fromGridWh ?? 0)).toBe(loadWh);
    const year = (await get<Generation>(`/api/v1/plant/${storage}/generation/year?year=${today.slice(0, 4)}`)).data;
    expect(year.bars).toHaveLength(12);
  });

  it('knows only generation for a plant without a meter', async () => {
    const gen = (await get<Generation>(`/api/v1/plant/${grid}/generation/day?date=${yesterday}`)).data;
    expect(gen).toMatchObject({ metered: false, points: [], totals: { generationWh: 4000, selfUseWh: null, exportWh: null } });
    const use = (await get<Use>(`/api/v1/plant/${grid}/use/month`)).data;
    expect(use.totals.loadWh).toBeNull();
  });
});

describe('income, benefits and performance', () => {
  it('prices exported energy at the feed-in price and the rest at the self-use price, with ROI and payback', async () => {
    const income = (await get<IncomeSummary>(`/api/v1/plant/${storage}/income/summary`)).data;
    // Yesterday 2.5 kWh × 0.10 + 3.5 kWh × 0.30; today 0.3 kWh × 0.10 + 0.7 kWh × 0.30.
    const total = 2.5 * 0.1 + 3.5 * 0.3 + 0.3 * 0.1 + 0.7 * 0.3;
    expect(income.currency).toBe('EUR');
    expect(income.measuredDays).toBe(2);
    expect(income.today).toBeCloseTo(0.24, 6);
    expect(income.total).toBeCloseTo(total, 6);
    expect(income.roiPercent).toBeCloseTo((total / 10_000) * 100, 6);
    expect(income.paybackYears).toBeCloseTo(10_000 / ((total / 2) * 365), 3);
    expect(income.remainingYears).toBeCloseTo((10_000 - total) / ((total / 2) * 365), 3);
  });

  it('prices time-of-use energy by the hours it was generated in', async () => {
    const income = (await get<IncomeSummary>(`/api/v1/plant/${grid}/income/summary`)).data;
    // 4 kWh yesterday, generated one third around 09:00 (0.10) and two thirds around 15:00 (0.30).
    expect(income.total).toBeCloseTo((4 / 3) * 0.1 + (8 / 3) * 0.3, 6);
    expect(income.roiPercent).toBeNull();
  });

  it('gives the environmental benefits of the lifetime energy with the default factors', async () => {
    const b = (await get<BenefitsAnswer>(`/api/v1/plant/${storage}/benefits`)).data;
    expect(b.energyKwh).toBe(107);
    expect(b.co2Kg).toBeCloseTo(107 * DEFAULT_BENEFIT_FACTORS.co2KgPerKwh);
    expect(b.trees).toBeCloseTo((107 * DEFAULT_BENEFIT_FACTORS.co2KgPerKwh) / DEFAULT_BENEFIT_FACTORS.co2KgPerTree);
    expect(b.factors).toEqual(DEFAULT_BENEFIT_FACTORS);
  });

  it('works out specific yield, PR, self-consumption and self-sufficiency with their inputs', async () => {
    const p = (await get<Performance>(`/api/v1/plant/${storage}/performance?from=${yesterday}&to=${yesterday}`)).data;
    expect(p.specificYield).toEqual({ value: 0.6, energyKwh: 6, capacityKwp: 10 });
    // Three hours at 800 W/m².
    expect(p.performanceRatio).toEqual({ value: 0.25, energyKwh: 6, capacityKwp: 10, irradiationKwhPerM2: 2.4 });
    expect(p.selfConsumption.value).toBeCloseTo(3.5 / 6);
    expect(p.selfConsumption).toMatchObject({ generationKwh: 6, exportKwh: 2.5 });
    expect(p.selfSufficiency.value).toBeCloseTo(2.5 / 3.5);
    expect(p.selfSufficiency).toMatchObject({ loadKwh: 3.5, importKwh: 1 });
    const gridPlant = (await get<Performance>(`/api/v1/plant/${grid}/performance?from=${yesterday}&to=${today}`)).data;
    expect(gridPlant.performanceRatio).toMatchObject({ value: null, irradiationKwhPerM2: null });
    expect(gridPlant.selfConsumption.value).toBeNull();
    expect((await get(`/api/v1/plant/${grid}/performance?from=${today}&to=${yesterday}`)).code).toBe(Code.VALIDATION);
  });
});

describe('events and devices', () => {
  it('lists the plant’s events newest first with device SN and counts them by level', async () => {
    const page = (await get<PlantEventPage>(`/api/v1/plant/${storage}/events?page=1&size=1`)).data;
    expect(page.total).toBe(2);
    expect(page.records).toEqual([
      expect.objectContaining({
        sn: 'PEHY000001',
        family: 'hybrid_inverter',
        code: 1001,
        level: 'fault',
        clearedAt: null,
        description: expect.stringMatching(/\w/),
      }),
    ]);
    const count = (await get<PlantEventCount>(`/api/v1/plant/${storage}/eventCount`)).data;
    expect(count).toEqual({ total: 2, open: 1, byLevel: { fault: 1, warning: 0, protect: 0 } });
  });

  it('lists the generating devices with status, power and today’s energy, and counts devices', async () => {
    const inverters = (await get<PlantInverter[]>(`/api/v1/plant/${storage}/inverters`)).data;
    expect(inverters).toEqual([expect.objectContaining({ sn: 'PEHY000001', status: 1, powerW: 2500, energyTodayWh: 1000 })]);
    const inverterCount = (await get<{ total: number; byStatus: Record<string, number> }>(`/api/v1/plant/${storage}/inverterCount`)).data;
    expect(inverterCount).toMatchObject({ total: 1, byStatus: { normal: 1, fault: 0 } });
    const deviceCount = (await get<DeviceCount>(`/api/v1/plant/${storage}/deviceCount`)).data;
    expect(deviceCount.total).toBe(4);
    expect(deviceCount.byFamily).toEqual({ hybrid_inverter: 1, battery: 1, meter: 1, weather_station: 1 });
    expect(Object.values(deviceCount.byStatus).reduce((a, b) => a + b, 0)).toBe(4);
  });
});

describe('weather', () => {
  it('reads the plant’s weather station', async () => {
    const w = (await get<Weather>(`/api/v1/weather?plantId=${storage}`)).data;
    expect(w).toMatchObject({ source: 'station', temperatureC: 21.5, irradianceWm2: 500, windSpeedMs: 4, humidity: 40 });
  });

  it('answers "none" calmly without a station or a configured provider (no network)', async () => {
    const w = (await get<Weather>(`/api/v1/weather?plantId=${grid}`)).data;
    expect(w).toEqual({
      source: 'none',
      ts: null,
      temperatureC: null,
      irradianceWm2: null,
      windSpeedMs: null,
      humidity: null,
      condition: null,
    });
  });
});

describe('comparison', () => {
  it('gives each plant’s daily energy and specific yield over the same days', async () => {
    const c = (await get<Compare>(`/api/v1/plants/compare?ids=${storage},${grid}&from=${yesterday}&to=${today}`)).data;
    expect(c.plants.map((p) => p.id)).toEqual([storage, grid]);
    expect(c.plants[0]?.days).toEqual([
      { day: yesterday, energyWh: 6000, specificYield: 0.6 },
      { day: today, energyWh: 1000, specificYield: 0.1 },
    ]);
    expect(c.plants[1]?.days[0]).toEqual({ day: yesterday, energyWh: 4000, specificYield: 0.4 });
  });

  it('refuses more than six plants with code 4', async () => {
    const body = await get(`/api/v1/plants/compare?ids=1,2,3,4,5,6,7`);
    expect(body.code).toBe(Code.VALIDATION);
  });
});

describe('tenant boundary', () => {
  it('answers 700 to another company’s user on every overview call, as for a missing plant', async () => {
    const other = await server.createCompany('Other Solar Co');
    const token = (await signedInUser(server, 'company_admin', other)).token;
    const paths = [
      'realtime',
      'power/day',
      'power/month',
      'power/year',
      'power/total',
      'energy/flow',
      'generation/day',
      'generation/month',
      'generation/year',
      'generation/total',
      'use/day',
      'use/month',
      'use/year',
      'use/total',
      'income/summary',
      'benefits',
      'performance',
      'events',
      'eventCount',
      'inverters',
      'inverterCount',
      'deviceCount',
    ];
    for (const path of paths) expect((await get(`/api/v1/plant/${storage}/${path}`, token)).code, path).toBe(Code.PLANT_NOT_FOUND);
    expect((await get(`/api/v1/weather?plantId=${storage}`, token)).code).toBe(Code.PLANT_NOT_FOUND);
    expect((await get(`/api/v1/plants/compare?ids=${storage}`, token)).code).toBe(Code.PLANT_NOT_FOUND);
    expect((await get('/api/v1/plant/999999/realtime')).code).toBe(Code.PLANT_NOT_FOUND);
  });

  it('shows the plant to a guest it is shared with', async () => {
    const guest = await server.createUser('owner');
    const shared = await call(server.app, 'POST', `/api/v1/plant/${storage}/share`, {
      token: adminToken,
      json: { account: guest.account, role: 'guest' },
    });
    expect(shared.body.code).toBe(0);
    const token = (await signIn(server.app, guest.account, guest.password)).access_token;
    expect((await get<PlantRealtime>(`/api/v1/plant/${storage}/realtime`, token)).data.powerW).toBe(2000);
  });
});

describe('gateway reports reach the overview live', () => {
  it('updates the flow when a new report arrives', async () => {
    const [gateway] = await server.database.db.select({ id: gateways.id }).from(gateways).where(eq(gateways.sn, storageGatewaySn));
    expect(gateway).toBeDefined();
    const client = testGateways[0];
    if (!client) throw new Error('no client');
    await client.report(nowTs() + 2000, [
      { sn: 'PEMT000001', proto: 'sunspec-meter-3p', values: { W: 1200, TotWhImp: 51_100, TotWhExp: 22_800 } },
    ]);
    const flow = (await get<EnergyFlow>(`/api/v1/plant/${storage}/energy/flow`)).data;
    expect(flow).toMatchObject({ gridW: 1200, gridState: 'buying', loadW: 2000 + 1200 + 500 });
  });
});
