import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlantCreate } from '@sunward/contracts/plants';
import type { ReportSchedule } from '@sunward/contracts/reports';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';
import { noonLongitude, runSimulator } from './support/simulator.js';

/*
 * Issue 21: a month report of a simulated plant, previewed, downloaded as PDF and .xlsx, scheduled to a
 * recipient and sent: the e-mail with the PDF lands in the outbox and the send log says so.
 */

const ZONE = 'Africa/Abidjan';
const GATEWAY = { sn: 'GWRP000001', key: 'reportkey01' };
const dataDir = mkdtempSync(join(tmpdir(), 'sunward-e2e-reports-'));
let server: TestServer;
let browser: Browser;
let simulator: ReturnType<typeof runSimulator> | undefined;
let plantId = 0;
let token = '';

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct({ DATA_DIR: dataDir }), launchBrowser()]);
  token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const longitude = noonLongitude();
  await server.registerGateway(GATEWAY.sn, GATEWAY.key);
  const body: PlantCreate = {
    name: 'Report Home',
    capacityKwp: 10,
    plantType: 3,
    latitude: 5,
    longitude,
    timezone: ZONE,
    meteringTopology: 'net',
    gateways: [GATEWAY],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const plant = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token, json: body });
  if (plant.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(plant.body)}`);
  plantId = plant.body.data.id;
  const fleet: SimulatedFleet = {
    seed: 21,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    gateways: [
      {
        ...GATEWAY,
        intervalSeconds: 2,
        plant: { name: 'Report Home', latitude: 5, longitude, timezone: ZONE, capacityKwp: 10, plantType: 3, load: 'household' },
        devices: [
          { sn: 'HYRP000001', protocolId: 'sunspec-hybrid-lv', family: 'hybrid_inverter', ratedPowerW: 10_000 },
          { sn: 'BTRP000001', protocolId: 'sunspec-battery-bms', family: 'battery', capacityKwh: 12 },
          { sn: 'MTRP000001', protocolId: 'sunspec-meter-3p', family: 'meter' },
        ],
      },
    ],
  };
  simulator = runSimulator(fleet);
  // Generation measured today (a few readings of the simulator at noon).
  await vi.waitFor(
    async () => {
      const realtime = await call<{ energyTodayWh: number }>(server.app, 'GET', `/api/v1/plant/${plantId}/realtime`, { token });
      if (!(realtime.body.data?.energyTodayWh >= 10)) throw new Error('no energy yet');
    },
    { timeout: 90_000, interval: 500 },
  );
}, 150_000);

afterAll(async () => {
  simulator?.stop();
  await browser?.close();
  await server?.close();
});

describe('reports', () => {
  it('previews a month report, downloads it as PDF and .xlsx, schedules it and sees it sent', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/report');
    await page.getByTestId('page-title').waitFor();

    await page.getByTestId('report-plant').click();
    await clickWhenOpen(page.locator('.ant-select-dropdown:visible').getByText('Report Home', { exact: true }));
    await page.getByTestId('report-preview').waitFor();
    await expect.poll(() => page.getByTestId('report-title').textContent()).toContain('Report Home');
    await expect.poll(() => page.getByTestId('report-kpi-generation').textContent()).toMatch(/[1-9]/);
    await page.getByTestId('report-chart').locator('canvas').first().waitFor();
    // The plant has a battery: its charge and discharge are figures of the report.
    expect(await page.getByTestId('report-kpi-charge').textContent()).toContain('Battery charged');
    expect(await page.getByTestId('report-kpi-discharge').textContent()).toContain('Battery discharged');
    expect(await page.getByTestId('report-period-tabs').textContent()).toBe('DayMonthYear');

    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // The month's generation in the report is the overview's month figure (read after the report, so ≥ it).
    const month = new Date().toISOString().slice(0, 7);
    const report = await call<{ totals: { generationWh: number } }>(
      server.app,
      'GET',
      `/api/v1/reports?scope=plant&plantId=${plantId}&period=month&date=${month}`,
      { token },
    );
    expect(report.body.data.totals.generationWh).toBeGreaterThan(0);

    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-pdf').click()]);
    expect(pdf.suggestedFilename()).toMatch(/Report Home .*\.pdf$/);
    const pdfPath = await pdf.path();
    expect(readFileSync(pdfPath).subarray(0, 5).toString()).toBe('%PDF-');
    // The PDF renders (poppler): at least one A4 page as an image.
    const pngDir = mkdtempSync(join(tmpdir(), 'sunward-report-png-'));
    execFileSync('pdftoppm', ['-png', '-r', '30', pdfPath, join(pngDir, 'page')]);
    expect(readdirSync(pngDir).length).toBeGreaterThanOrEqual(1);
    rmSync(pngDir, { recursive: true, force: true });

    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-xlsx').click()]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await xlsx.path());
    expect(book.worksheets.map((w) => w.name)).toContain('Devices');

    // Save a configuration, then change it (PUT) through the edit action.
    await page.getByTestId('report-save-config').click();
    await page.getByTestId('config-name').fill('Owner view');
    await page.locator('.ant-modal:visible .ant-btn-primary').click();
    await page.getByTestId('report-edit-config').click();
    await expect.poll(() => page.getByTestId('config-name').inputValue()).toBe('Owner view');
    await page.getByTestId('config-name').fill('Owner view 2');
    await page.locator('.ant-modal:visible .ant-btn-primary').click();
    await expect
      .poll(async () => {
        const list = await call<{ name: string }[]>(server.app, 'GET', `/api/v1/reports/configs?plantId=${plantId}`, { token });
        return list.body.data.map((c) => c.name);
      })
      .toEqual(['Owner view 2']);

    // Schedule it monthly to a recipient in German, then send it now.
    await page.getByTestId('schedule-email-0').fill('owner@example.com');
    await page.getByTestId('schedule-create').click();
    await expect.poll(() => page.getByTestId('schedule-table').textContent()).toContain('owner@example.com');
    await page.locator('[data-testid^="schedule-run-"]').first().click();
    await expect.poll(() => page.getByTestId('send-log').textContent()).toContain('Sent');

    const outbox = join(dataDir, 'outbox');
    const mails = readdirSync(outbox).map((f) => readFileSync(join(outbox, f), 'utf8'));
    const mail = mails.find((m) => m.includes('owner@example.com'));
    expect(mail).toContain('application/pdf');
    expect(mail).toContain('Report Home');

    // Pause the schedule and resume it.
    await page.locator('[data-testid^="schedule-toggle-"]').first().click();
    await expect.poll(() => page.getByTestId('schedule-table').textContent()).toContain('Paused');
    await page.locator('[data-testid^="schedule-toggle-"]').first().click();
    await expect.poll(() => page.getByTestId('schedule-table').textContent()).not.toContain('Paused');
    // Edit the schedule: weekly, a second recipient in Polish; a bad address is refused under its row first.
    const listed = (await call<ReportSchedule[]>(server.app, 'GET', '/api/v1/reports/schedules', { token })).body.data;
    await page.getByTestId(`schedule-edit-${listed[0]?.id}`).click();
    await page.getByTestId('schedule-edit-frequency').waitFor();
    await page.getByTestId('schedule-edit-frequency').getByText('Weekly').click();
    await page.getByTestId('schedule-edit-add').click();
    await page.getByTestId('schedule-edit-email-1').fill('not an address');
    await page.locator('.ant-modal:visible .ant-btn-primary').click();
    await expect.poll(() => page.getByTestId('schedule-edit-error-1').textContent()).toContain('is not an e-mail address');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.getByTestId('schedule-edit-email-1').fill('accountant@example.com');
    await page.getByTestId('schedule-edit-language-1').click();
    await clickWhenOpen(page.locator('.ant-select-dropdown:visible').getByText('Polski', { exact: true }));
    await page.locator('.ant-modal:visible .ant-btn-primary').click();
    await page.getByTestId('schedule-edit-frequency').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('schedule-table').textContent()).toContain('accountant@example.com (po)');
    expect(await page.getByTestId('schedule-table').textContent()).toContain('Weekly');
    const [schedule] = (await call<ReportSchedule[]>(server.app, 'GET', '/api/v1/reports/schedules', { token })).body.data;
    expect(schedule).toMatchObject({ frequency: 'weekly' });
    expect(schedule?.recipients).toEqual([
      { email: 'owner@example.com', language: 'en' },
      { email: 'accountant@example.com', language: 'po' },
    ]);

    // A button still loading is drawn faded; axe looks at the page once every answer is in.
    await expect.poll(() => page.locator('.ant-btn-loading').count()).toBe(0);

    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('previews a device report of the plant’s inverter and downloads it as PDF and .xlsx', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/report');
    await page.getByTestId('report-scope').getByText('One device').click();
    await page.getByTestId('report-plant').click();
    await clickWhenOpen(page.locator('.ant-select-dropdown:visible').getByText('Report Home', { exact: true }));
    await page.getByTestId('report-device').click();
    await page
      .locator('.ant-select-dropdown:visible')
      .getByText(/HYRP000001/)
      .click();
    await page.getByTestId('device-report-preview').waitFor();
    await expect.poll(() => page.getByTestId('report-title').textContent()).toContain('HYRP000001');
    // Its energy, peak power and running hours, from the rollups.
    await expect
      .poll(() => page.locator('[data-testid^="device-kpi-counter-"]').first().textContent(), { timeout: 30_000 })
      .toMatch(/[1-9]/);
    expect(await page.getByTestId('device-kpi-peak').textContent()).toMatch(/Peak power[\d.,]+ kW/);
    expect(await page.getByTestId('device-kpi-hours').textContent()).toContain('Running hours');
    await page.getByTestId('device-report-chart').locator('canvas').first().waitFor();
    await expect.poll(() => page.locator('.ant-btn-loading').count()).toBe(0);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-pdf').click()]);
    expect(pdf.suggestedFilename()).toMatch(/HYRP000001.*\.pdf$/);
    const pdfPath = await pdf.path();
    const pngDir = mkdtempSync(join(tmpdir(), 'sunward-device-report-png-'));
    execFileSync('pdftoppm', ['-png', '-r', '30', pdfPath, join(pngDir, 'page')]);
    expect(readdirSync(pngDir).length).toBeGreaterThanOrEqual(1);
    rmSync(pngDir, { recursive: true, force: true });
    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-xlsx').click()]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await xlsx.path());
    expect(book.worksheets.map((w) => w.name)).toEqual(['Summary', 'Energy', 'Events']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
