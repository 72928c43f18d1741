import { mkdtempSync } from 'node:fs';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code } from '@sunward/contracts/codes';
import {
  addDays,
  type EnergyBars,
  type Generation,
  localDayOf,
  localDayStart,
  type Performance,
  type Use,
} from '@sunward/contracts/plant-energy';
import type { PlantCreate } from '@sunward/contracts/plants';
import type { DeviceReport, Report, ReportConfig, ReportSchedule, ReportSend } from '@sunward/contracts/reports';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { deviceEvents, devices, emailDeliveries, plants, users } from '../../db/schema.js';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';
import { createPlantAccess } from '../plants/plant-access.js';
import { createPlantEnergyRepository } from '../plants/plant-energy.repository.js';
import { createPlantEnergyService } from '../plants/plant-energy.service.js';
import { reportRenderer } from './report-render.js';
import { createReportsRepository } from './reports.repository.js';
import { createReportsService } from './reports.service.js';

const ZONE = 'Africa/Abidjan';
const HOUR = 3_600_000;
const today = localDayOf(Date.now(), ZONE);
const yesterday = addDays(today, -1);
const month = yesterday.slice(0, 7);
const at = (day: string, hour: number) => localDayStart(day, ZONE) + hour * HOUR;
/** Our own DATA_DIR, to read the e-mail outbox. */
const dataDir = mkdtempSync(join(tmpdir(), 'sunward-reports-'));

const PLANT: Partial<PlantCreate> = {
  capacityKwp: 10,
  plantType: 3,
  latitude: 5.36,
  longitude: -4.01,
  timezone: ZONE,
  meteringTopology: 'net',
  tariff: { currency: 'EUR', pricingMethod: 'generation', feedInPrice: 0.1, selfUsePrice: 0.3 },
};

let server: TestServer;
let adminToken: string;
let plantId: number;
let hybridId: number;
const gateways: TestGateway[] = [];
const { get, post, del } = apiClient(
  () => server.app,
  () => adminToken,
);

beforeAll(async () => {
  server = await startTestServer({ DATA_DIR: dataDir });
  adminToken = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const p = await createPlant(server, adminToken, { ...PLANT, name: 'Report Plant' });
  plantId = p.id;
  await server.database.db.insert(devices).values(
    [
      { sn: 'RPHY000001', protocolId: 'sunspec-hybrid-lv', family: 'hybrid_inverter' },
      { sn: 'RPBT000001', protocolId: 'sunspec-battery-bms', family: 'battery' },
      { sn: 'RPMT000001', protocolId: 'sunspec-meter-3p', family: 'meter' },
      { sn: 'RPWS000001', protocolId: 'sunspec-weather-station', family: 'weather_station' },
    ].map((d) => ({ ...d, plantId: p.id, gatewayId: p.gateway.id, model: d.protocolId })),
  );
  const gw = await connectTestGateway(server.telemetry.mqttPort, p.gateway.sn, p.gateway.key);
  gateways.push(gw);
  const hours = [
    {
      hour: 10,
      hy: { W: 3000, BatW: -1000, WH: 100_000 },
      bt: { ChaWH: 30_000, DisChaWH: 10_000 },
      mt: { W: -1500, imp: 50_000, exp: 20_000 },
    },
    {
      hour: 11,
      hy: { W: 4000, BatW: -500, WH: 103_000 },
      bt: { ChaWH: 31_000, DisChaWH: 10_200 },
      mt: { W: -2000, imp: 50_400, exp: 21_000 },
    },
    {
      hour: 12,
      hy: { W: 4500, BatW: 0, WH: 106_000 },
      bt: { ChaWH: 31_500, DisChaWH: 10_500 },
      mt: { W: -1000, imp: 51_000, exp: 22_500 },
    },
  ];
  for (const h of hours)
    await gw.report(at(yesterday, h.hour), [
      { sn: 'RPHY000001', proto: 'sunspec-hybrid-lv', values: { ...h.hy, St: 4 } },
      { sn: 'RPBT000001', proto: 'sunspec-battery-bms', values: { W: 0, ...h.bt, SoC: 60 } },
      { sn: 'RPMT000001', proto: 'sunspec-meter-3p', values: { W: h.mt.W, TotWhImp: h.mt.imp, TotWhExp: h.mt.exp } },
      { sn: 'RPWS000001', proto: 'sunspec-weather-station', values: { POAI: 800, TmpAmb: 24 } },
    ]);
  await server.telemetry.pipeline.drain();
  const [hybrid] = await server.database.db.select({ id: devices.id }).from(devices).where(eq(devices.sn, 'RPHY000001'));
  if (!hybrid) throw new Error('no hybrid');
  hybridId = hybrid.id;
  await server.database.db.insert(deviceEvents).values({
    deviceId: hybrid.id,
    plantId: p.id,
    code: 1001,
    level: 'fault',
    openedAt: new Date(at(yesterday, 11)),
    clearedAt: new Date(at(yesterday, 12)),
  });
});

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await server?.close();
});

describe('a month report', () => {
  it('agrees with the plant overview to the watt-hour for the same month', async () => {
    const report = (await get<Report>(`/api/v1/reports?scope=plant&plantId=${plantId}&period=month&date=${month}`)).data;
    const gen = (await get<Generation>(`/api/v1/plant/${plantId}/generation/month?month=${month}`)).data;
    const use = (await get<Use>(`/api/v1/plant/${plantId}/use/month?month=${month}`)).data;
    const bars = (await get<EnergyBars>(`/api/v1/plant/${plantId}/power/month?month=${month}`)).data;
    const lastDay = month === today.slice(0, 7) ? today : addDays(`${today.slice(0, 7)}-01`, -1);
    const perf = (await get<Performance>(`/api/v1/plant/${plantId}/performance?from=${month}-01&to=${lastDay}`)).data;
    expect(report.empty).toBe(false);
    expect(report.totals.generationWh).toBe(6000);
    expect(report.totals.generationWh).toBe(gen.totals.generationWh);
    expect(report.totals.generationWh).toBe(bars.totalWh);
    expect(report.totals.feedInWh).toBe(gen.totals.exportWh);
    expect(report.totals.selfConsumptionWh).toBe(gen.totals.selfUseWh);
    expect(report.totals.consumptionWh).toBe(use.totals.loadWh);
    expect(report.totals.purchaseWh).toBe(use.totals.fromGridWh);
    // Storage: the batteries' charge and discharge are the overview's (use/month) to the watt-hour, and shown.
    expect(report.totals.chargeWh).toBe(1500);
    expect(report.totals.dischargeWh).toBe(500);
    expect(use.battery).toEqual({ chargeWh: report.totals.chargeWh, dischargeWh: report.totals.dischargeWh });
    expect(report.parameters).toEqual(expect.arrayContaining(['charge', 'discharge']));
    const yearUse = (await get<Use>(`/api/v1/plant/${plantId}/use/year?year=${month.slice(0, 4)}`)).data;
    const yearReport = (await get<Report>(`/api/v1/reports?scope=plant&plantId=${plantId}&period=year&date=${month.slice(0, 4)}`)).data;
    expect([yearReport.totals.chargeWh, yearReport.totals.dischargeWh]).toEqual([yearUse.battery?.chargeWh, yearUse.battery?.dischargeWh]);
    expect(report.totals.specificYield).toBe(perf.specificYield.value);
    expect(report.totals.performanceRatio).toBeCloseTo(perf.performanceRatio.value ?? -1, 9);
    // Per day as well: the report's bars are the overview's bars.
    for (const b of gen.bars) expect(report.bars.find((x) => x.key === b.key)?.generationWh).toBe(b.generationWh);
    // Plant = Σ devices: the device table adds up to the plant's generation.
    const deviceSum = report.devices.reduce((s, d) => s + (d.family === 'hybrid_inverter' ? (d.energyWh ?? 0) : 0), 0);
    expect(deviceSum).toBe(report.totals.generationWh);
    // The fault hour, with its duration, lowers the availability.
    expect(report.events).toHaveLength(1);
    expect(report.events[0]?.durationSeconds).toBe(3600);
    expect(report.totals.availability).not.toBeNull();
    expect(report.totals.availability ?? 1).toBeLessThan(1);
    expect(report.totals.income).not.toBeNull();
  });

  it('writes the same report as an A4 PDF and as .xlsx', async () => {
    const file = (format: string) =>
      server.app.inject({
        method: 'GET',
        url: `/api/v1/reports/file?scope=plant&plantId=${plantId}&period=month&date=${month}&format=${format}`,
        headers: { authorization: `Bearer ${adminToken}` },
      });
    const pdf = await file('pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const xlsx = await file('xlsx');
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const summary = book.worksheets[0];
    const generationRow = summary?.getRows(1, 20)?.find((r) => r.getCell(1).value === 'Energy generated');
    expect(generationRow?.getCell(2).value).toBe(6);
  });

  it('says a period without data is empty instead of failing', async () => {
    const body = await get<Report>(`/api/v1/reports?scope=plant&plantId=${plantId}&period=month&date=2001-01`);
    expect(body.code).toBe(0);
    expect(body.data.empty).toBe(true);
    expect(body.data.totals.generationWh).toBe(0);
  });

  it('adds plants up for a set of plants and refuses a plant of another tenant', async () => {
    const other = await signedInUser(server, 'owner');
    const body = await get<Report>(`/api/v1/reports?scope=plants&plantIds=${plantId}&period=month&date=${month}`, other.token);
    expect(body.code).toBe(Code.PLANT_NOT_FOUND);
    const own = await get<Report>(`/api/v1/reports?scope=plants&plantIds=${plantId}&period=year&date=${month.slice(0, 4)}`);
    expect(own.data.totals.generationWh).toBe(6000);
    expect(own.data.plants).toHaveLength(1);
  });
});

/** The reports service on the test server's database, for what the API does not reach (weekly reports, the sweep). */
function directService() {
  const db = server.database.db;
  return createReportsService({
    repository: createReportsRepository(db),
    plantAccess: createPlantAccess(db),
    energy: createPlantEnergyService({ repository: createPlantEnergyRepository(db), benefitFactors: loadConfig({}).benefitFactors }),
    renderer: reportRenderer,
    readLogo: async () => undefined,
    mail: { sendNow: async () => undefined },
    downloads: {
      runExportJob: () => {
        throw new Error('not used');
      },
    },
    saveAttachment: async () => '',
    attachmentDir: join(dataDir, 'reports'),
    retentionDays: 7,
  });
}

describe('a device report', () => {
  type Bars = { labels: string[]; series: { key: string; values: (number | null)[] }[] };
  const sumOf = (bars: Bars, key: string, labels?: readonly string[]) =>
    bars.series
      .find((s) => s.key === key)
      ?.values.reduce<number>((a, v, i) => (labels && !labels.includes(bars.labels[i] ?? '') ? a : a + (v ?? 0)), 0);

  it('agrees with the device detail page to the watt-hour for a day, a month and a year', async () => {
    const monthly = (await get<Bars>(`/api/v1/inverter/RPHY000001/month?date=${month}`)).data;
    const yearly = (await get<Bars>(`/api/v1/inverter/RPHY000001/year?date=${month.slice(0, 4)}`)).data;
    const ofMonth = (await get<DeviceReport>(`/api/v1/reports/device?deviceId=${hybridId}&period=month&date=${month}`)).data;
    const ofDay = (await get<DeviceReport>(`/api/v1/reports/device?deviceId=${hybridId}&period=day&date=${yesterday}`)).data;
    const ofYear = (await get<DeviceReport>(`/api/v1/reports/device?deviceId=${hybridId}&period=year&date=${month.slice(0, 4)}`)).data;
    expect(ofMonth.counters.length).toBeGreaterThan(0);
    for (const c of ofMonth.counters) expect(c.energyWh).toBe(sumOf(monthly, c.key));
    for (const c of ofDay.counters) expect(c.energyWh ?? 0).toBe(sumOf(monthly, c.key, [yesterday]));
    for (const c of ofYear.counters) expect(c.energyWh).toBe(sumOf(yearly, c.key));
    // The generation counter is the plant's generation (one inverter): 6 kWh.
    expect(Math.max(...ofMonth.counters.map((c) => c.energyWh ?? 0))).toBe(6000);
    // Peak power and running hours from the rollups; the fault hour with its duration lowers availability.
    expect(ofDay.peakPowerW).toBe(4500);
    expect(ofDay.runningHours).toBe(3);
    expect(ofDay.events).toHaveLength(1);
    expect(ofDay.events[0]?.durationSeconds).toBe(3600);
    expect(ofDay.faultSeconds).toBe(3600);
    expect(ofDay.availability).toBeCloseTo(1 - 3600 / 86_400, 9);
    expect(ofMonth.empty).toBe(false);
  });

  it('reports a battery’s charge and discharge as its detail page does, and writes PDF and .xlsx', async () => {
    const [battery] = await server.database.db.select({ id: devices.id }).from(devices).where(eq(devices.sn, 'RPBT000001'));
    const monthly = (await get<Bars>(`/api/v1/battery/RPBT000001/month?date=${month}`)).data;
    const report = (await get<DeviceReport>(`/api/v1/reports/device?deviceId=${battery?.id}&period=month&date=${month}`)).data;
    expect(report.counters.length).toBeGreaterThan(0);
    for (const c of report.counters) expect(c.energyWh).toBe(sumOf(monthly, c.key));
    for (const format of ['pdf', 'xlsx']) {
      const file = await server.app.inject({
        method: 'GET',
        url: `/api/v1/reports/device/file?deviceId=${battery?.id}&period=month&date=${month}&format=${format}`,
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-disposition']).toContain('RPBT000001');
    }
  });

  it('refuses a device of another tenant or none, and says a period without data is empty', async () => {
    const other = await signedInUser(server, 'owner');
    expect((await get(`/api/v1/reports/device?deviceId=${hybridId}&period=month`, other.token)).code).toBe(Code.DEVICE_NOT_FOUND);
    expect((await get(`/api/v1/reports/device?deviceId=999999&period=month`)).code).toBe(Code.DEVICE_NOT_FOUND);
    expect((await get(`/api/v1/reports/devices?plantId=${plantId}`, other.token)).code).toBe(Code.PLANT_NOT_FOUND);
    const options = (await get<{ sn: string }[]>(`/api/v1/reports/devices?plantId=${plantId}`)).data;
    expect(options.map((o) => o.sn)).toEqual(expect.arrayContaining(['RPHY000001', 'RPBT000001', 'RPMT000001']));
    const empty = (await get<DeviceReport>(`/api/v1/reports/device?deviceId=${hybridId}&period=month&date=2001-01`)).data;
    expect(empty.empty).toBe(true);
  });
});

describe('a weekly report (what a weekly schedule mails)', () => {
  const SUMMED = ['generationWh', 'consumptionWh', 'feedInWh', 'purchaseWh', 'selfConsumptionWh', 'income'] as const;
  const sumOf = (values: (number | null | undefined)[]) =>
    values.every((v) => v === null || v === undefined) ? null : values.reduce<number>((s, v) => s + (v ?? 0), 0);

  it('is the seven days added up in every column, plant rows add up to the total, PR energy-weighted', async () => {
    // A second plant measuring on two days of the week before last (Monday…Sunday in its zone).
    const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
    const monday = addDays(today, -weekday - 14);
    const p = await createPlant(server, adminToken, { ...PLANT, name: 'Week Plant', capacityKwp: 8 });
    await server.database.db.insert(devices).values(
      [
        { sn: 'WKHY000001', protocolId: 'sunspec-hybrid-lv', family: 'hybrid_inverter' },
        { sn: 'WKMT000001', protocolId: 'sunspec-meter-3p', family: 'meter' },
        { sn: 'WKWS000001', protocolId: 'sunspec-weather-station', family: 'weather_station' },
      ].map((d) => ({ ...d, plantId: p.id, gatewayId: p.gateway.id, model: d.protocolId })),
    );
    const gw = await connectTestGateway(server.telemetry.mqttPort, p.gateway.sn, p.gateway.key);
    gateways.push(gw);
    const days = [
      { day: addDays(monday, 1), wh: [10_000, 12_000, 15_000], imp: [1_000, 1_200, 1_300], exp: [500, 1_500, 2_500], poai: 700 },
      { day: addDays(monday, 3), wh: [20_000, 21_000, 21_500], imp: [2_000, 2_900, 3_000], exp: [3_000, 3_100, 3_400], poai: 300 },
    ];
    for (const d of days)
      for (const [i, hour] of [9, 11, 13].entries())
        await gw.report(at(d.day, hour), [
          { sn: 'WKHY000001', proto: 'sunspec-hybrid-lv', values: { W: 3000, BatW: 0, WH: d.wh[i] ?? 0, St: 4 } },
          { sn: 'WKMT000001', proto: 'sunspec-meter-3p', values: { W: -500, TotWhImp: d.imp[i] ?? 0, TotWhExp: d.exp[i] ?? 0 } },
          { sn: 'WKWS000001', proto: 'sunspec-weather-station', values: { POAI: d.poai, TmpAmb: 20 } },
        ]);
    await server.telemetry.pipeline.drain();

    const db = server.database.db;
    const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.account, ADMIN.account));
    const service = directService();
    const caller = { userId: admin?.id ?? 0, roleKey: 'platform_admin' as const, companyId: null };
    const query = { scope: 'plants' as const, plantIds: [p.id, plantId], period: 'day' as const };
    const week = await service.weekReport(caller, query, monday, 'en', undefined);
    const dayReports = await Promise.all(
      Array.from({ length: 7 }, (_, i) => service.build(caller, { ...query, date: addDays(monday, i) }, 'en')),
    );
    expect(week.from).toBe(monday);
    expect(week.to).toBe(addDays(monday, 6));
    const dayRow = (r: Report, id: number) => r.plants.find((x) => x.id === id)?.figures;
    for (const id of [p.id, plantId]) {
      const row = week.plants.find((x) => x.id === id)?.figures;
      for (const key of SUMMED) expect([id, key, row?.[key]]).toEqual([id, key, sumOf(dayReports.map((r) => dayRow(r, id)?.[key]))]);
    }
    const weekRow = week.plants.find((x) => x.id === p.id)?.figures;
    // Both measured days count (the bug showed the first day's values).
    const measured = dayReports.map((r) => dayRow(r, p.id)?.generationWh ?? 0).filter((v) => v > 0);
    expect(measured).toHaveLength(2);
    expect(weekRow?.generationWh).toBe(measured.reduce((a, b) => a + b, 0));
    // PR: Σ generation / Σ (capacity × irradiation), not the mean of the daily ratios.
    const prDays = dayReports
      .map((r) => dayRow(r, p.id))
      .filter((f) => f?.performanceRatio !== null && f?.performanceRatio !== undefined && f.generationWh > 0);
    expect(prDays).toHaveLength(2);
    const weighted =
      prDays.reduce((s, f) => s + (f?.generationWh ?? 0), 0) /
      prDays.reduce((s, f) => s + (f?.generationWh ?? 0) / (f?.performanceRatio ?? 1), 0);
    expect(weekRow?.performanceRatio).toBeCloseTo(weighted, 9);
    expect(week.totals.performanceRatio).toBeCloseTo(weighted, 9);
    // The report's total is the plant rows added up (and Σ days).
    for (const key of SUMMED) {
      expect([key, week.totals[key]]).toEqual([key, sumOf(week.plants.map((x) => x.figures[key]))]);
      expect([key, week.totals[key]]).toEqual([key, sumOf(dayReports.map((r) => r.totals[key]))]);
    }
    expect(week.bars.map((b) => b.key)).toEqual(Array.from({ length: 7 }, (_, i) => addDays(monday, i)));

    // A set of plants through the API: total = Σ plant rows.
    const set = (await get<Report>(`/api/v1/reports?scope=plants&plantIds=${p.id},${plantId}&period=year&date=${monday.slice(0, 4)}`)).data;
    expect(set.plants).toHaveLength(2);
    for (const key of SUMMED) expect([key, set.totals[key]]).toEqual([key, sumOf(set.plants.map((x) => x.figures[key]))]);
  });
});

describe('a report of several plants in the background', () => {
  it('is prepared through the download centre and downloads as a PDF', async () => {
    const started = await post<{ id: number; status: string; kind: string }>('/api/v1/reports/export', {
      scope: 'plants',
      plantIds: [plantId],
      period: 'month',
      date: month,
      format: 'pdf',
    });
    expect(started.code).toBe(0);
    expect(started.data.kind).toBe('report');
    await expect
      .poll(
        async () =>
          (await get<{ infos: { id: number; status: string }[] }>('/api/v1/fileDownloadRecord/list')).data.infos.find(
            (r) => r.id === started.data.id,
          )?.status,
        {
          timeout: 20_000,
        },
      )
      .toBe('done');
    const file = await server.app.inject({
      method: 'GET',
      url: `/api/v1/fileDownloadRecord/${started.data.id}/download`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('report configurations', () => {
  it('saves at most 6 parameters and 6 units, units of the plant only', async () => {
    const seven = ['generation', 'consumption', 'feedIn', 'purchase', 'selfConsumption', 'specificYield', 'income'];
    const tooMany = await post(`/api/v1/reports/configs`, { plantId, name: 'Too many', period: 'month', parameters: seven, units: [] });
    expect(tooMany.code).toBe(Code.REPORT_TOO_MANY_PARAMETERS);
    const units = await post(`/api/v1/reports/configs`, {
      plantId,
      name: 'Units',
      period: 'month',
      parameters: ['generation'],
      units: [1, 2, 3, 4, 5, 6, 7],
    });
    expect(units.code).toBe(Code.REPORT_TOO_MANY_UNITS);
    const foreign = await post(`/api/v1/reports/configs`, {
      plantId,
      name: 'Foreign',
      period: 'month',
      parameters: ['generation'],
      units: [999_999],
    });
    expect(foreign.code).toBe(Code.REPORT_UNIT_NOT_IN_PLANT);
    const saved = await post<ReportConfig>(`/api/v1/reports/configs`, {
      plantId,
      name: 'Monthly for the owner',
      period: 'month',
      parameters: ['generation', 'availability'],
      units: [hybridId],
    });
    expect(saved.code).toBe(0);
    const report = (
      await get<Report>(`/api/v1/reports?scope=plant&plantId=${plantId}&period=month&date=${month}&configId=${saved.data.id}`)
    ).data;
    expect(report.parameters).toEqual(['generation', 'availability']);
    expect(report.devices.map((d) => d.id)).toEqual([hybridId]);
    const list = await get<ReportConfig[]>(`/api/v1/reports/configs?plantId=${plantId}`);
    expect(list.data.map((c) => c.name)).toContain('Monthly for the owner');
    const stranger = await signedInUser(server, 'owner');
    expect((await get(`/api/v1/reports/configs?plantId=${plantId}`, stranger.token)).code).toBe(Code.PLANT_NOT_FOUND);
  });
});

describe('scheduled reports', () => {
  it('mails the report to each recipient in their language through the outbox and logs the send', async () => {
    const created = await post<ReportSchedule>('/api/v1/reports/schedules', {
      scope: 'plant',
      plantId,
      frequency: 'monthly',
      format: 'pdf',
      recipients: [
        { email: 'owner@example.com', language: 'de' },
        { email: 'boss@example.com', language: 'cn' },
      ],
    });
    expect(created.code).toBe(0);
    expect(created.data.enabled).toBe(true);
    const run = await post<{ sends: number }>(`/api/v1/reports/schedules/${created.data.id}/run`);
    expect(run.data.sends).toBe(2);
    const log = await get<{ total: number; records: ReportSend[] }>(`/api/v1/reports/sends?scheduleId=${created.data.id}`);
    expect(log.data.total).toBe(2);
    expect(log.data.records.map((r) => r.status)).toEqual(['sent', 'sent']);
    const outbox = join(dataDir, 'outbox');
    const files = await readdir(outbox);
    const mails = await Promise.all(files.map((f) => readFile(join(outbox, f), 'utf8')));
    const german = mails.find((m) => m.includes('owner@example.com'));
    expect(german).toContain('application/pdf');
    expect(german).toMatch(/Anlagenbericht/);

    // The attached files are deleted by the hourly sweep once the e-mails went out; an old file no e-mail
    // waits for goes after the retention, a young one stays.
    const dir = join(dataDir, 'reports');
    expect((await readdir(dir)).length).toBeGreaterThanOrEqual(2);
    const stale = join(dir, 'stale.pdf');
    const young = join(dir, 'young.pdf');
    await writeFile(stale, 'x');
    await writeFile(young, 'x');
    const longAgo = new Date(Date.now() - 8 * 86_400_000);
    await utimes(stale, longAgo, longAgo);
    expect(await directService().sweepAttachments()).toBeGreaterThanOrEqual(3);
    expect(await readdir(dir)).toEqual(['young.pdf']);
    const kept = await server.database.db
      .select({ path: emailDeliveries.attachmentPath })
      .from(emailDeliveries)
      .where(eq(emailDeliveries.kind, 'report'));
    expect(kept.every((r) => r.path === null)).toBe(true);
  });

  it('pauses and resumes a schedule and changes its recipients; only its owner may', async () => {
    const put = async <T>(id: number, body: Record<string, unknown>, token = adminToken) =>
      (
        await server.app.inject({
          method: 'PUT',
          url: `/api/v1/reports/schedules/${id}`,
          headers: { authorization: `Bearer ${token}` },
          payload: body,
        })
      ).json() as { code: number; data: T };
    const created = await post<ReportSchedule>('/api/v1/reports/schedules', {
      scope: 'plant',
      plantId,
      frequency: 'weekly',
      recipients: [{ email: 'a@example.com', language: 'en' }],
    });
    const paused = await put<ReportSchedule>(created.data.id, { enabled: false });
    expect(paused.data).toMatchObject({ enabled: false, disabledReason: 'paused' });
    const edited = await put<ReportSchedule>(created.data.id, {
      recipients: [
        { email: 'b@example.com', language: 'cn' },
        { email: 'c@example.com', language: 'de' },
      ],
      format: 'xlsx',
    });
    expect(edited.data.recipients.map((r) => r.email)).toEqual(['b@example.com', 'c@example.com']);
    expect(edited.data).toMatchObject({ enabled: false, format: 'xlsx' });
    expect((await put(created.data.id, { recipients: [] })).code).not.toBe(0);
    // Another frequency runs next at its own regular time: the 1st of next month at 06:00 UTC.
    const monthly = await put<ReportSchedule>(created.data.id, { frequency: 'monthly' });
    expect(monthly.data.frequency).toBe('monthly');
    const next = new Date(monthly.data.nextRunAt);
    expect([next.getUTCDate(), next.getUTCHours()]).toEqual([1, 6]);
    // A bad address is refused in the caller's language, naming the field; nothing changes.
    const refused = await server.app.inject({
      method: 'PUT',
      url: `/api/v1/reports/schedules/${created.data.id}`,
      headers: { authorization: `Bearer ${adminToken}`, 'accept-language': 'de' },
      payload: {
        recipients: [
          { email: 'b@example.com', language: 'cn' },
          { email: 'not an address', language: 'de' },
        ],
      },
    });
    const body = refused.json() as { code: number; data: { errors: { field: string; message: string }[] } };
    expect(body.code).toBe(Code.VALIDATION);
    expect(body.data.errors[0]?.field).toBe('recipients.1.email');
    expect(body.data.errors[0]?.message).not.toMatch(/invalid/i);
    const unchanged = (await get<ReportSchedule[]>('/api/v1/reports/schedules')).data.find((x) => x.id === created.data.id);
    expect(unchanged?.recipients.map((r) => r.email)).toEqual(['b@example.com', 'c@example.com']);
    const resumed = await put<ReportSchedule>(created.data.id, { enabled: true });
    expect(resumed.data).toMatchObject({ enabled: true, disabledReason: null });
    const stranger = await signedInUser(server, 'owner');
    expect((await put(created.data.id, { enabled: false }, stranger.token)).code).not.toBe(0);
    const list = await get<ReportSchedule[]>('/api/v1/reports/schedules');
    expect(list.data.find((x) => x.id === created.data.id)?.enabled).toBe(true);
    expect((await del(`/api/v1/reports/schedules/${created.data.id}`)).code).toBe(0);
  });

  it('refuses a schedule for a deleted plant, and disables one whose plant was deleted, with the reason', async () => {
    const p = await createPlant(server, adminToken, { ...PLANT, name: 'Short-lived Plant' });
    const created = await post<ReportSchedule>('/api/v1/reports/schedules', {
      scope: 'plant',
      plantId: p.id,
      frequency: 'weekly',
      recipients: [{ email: 'x@example.com', language: 'en' }],
    });
    expect(created.code).toBe(0);
    await server.database.db.delete(plants).where(eq(plants.id, p.id));
    const again = await post('/api/v1/reports/schedules', {
      scope: 'plant',
      plantId: p.id,
      frequency: 'weekly',
      recipients: [{ email: 'x@example.com', language: 'en' }],
    });
    expect(again.code).toBe(Code.PLANT_NOT_FOUND);
    const run = await post(`/api/v1/reports/schedules/${created.data.id}/run`);
    expect(run.code).toBe(Code.REPORT_SCHEDULE_TARGET_DELETED);
    const list = await get<ReportSchedule[]>('/api/v1/reports/schedules');
    const disabled = list.data.find((s) => s.id === created.data.id);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'plant_deleted', targetName: 'Short-lived Plant' });
    const resume = await server.app.inject({
      method: 'PUT',
      url: `/api/v1/reports/schedules/${created.data.id}`,
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { enabled: true },
    });
    expect(resume.json().code).toBe(Code.REPORT_SCHEDULE_TARGET_DELETED);
    expect((await del(`/api/v1/reports/schedules/${created.data.id}`)).code).toBe(0);
  });
});
