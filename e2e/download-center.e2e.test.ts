import { readFileSync } from 'node:fs';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

/*
 * Issue 21: an event export of 100,000 rows (five times the immediate limit) goes to the download centre,
 * which shows its progress bar while it is prepared, then the file is downloaded whole.
 */

const EVENTS = 100_000;
let server: TestServer;
let browser: Browser;
let plantId = 0;
let gatewayId = 0;

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const adminToken = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const key = 'downloadkey1';
  gatewayId = await server.registerGateway('GWDL000001', key);
  const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', {
    token: adminToken,
    json: {
      name: 'Download Plant',
      capacityKwp: 10,
      plantType: 1,
      latitude: 48.2,
      longitude: 16.37,
      timezone: 'Europe/Vienna',
      meteringTopology: 'net',
      gateways: [{ sn: 'GWDL000001', key }],
      tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
    },
  });
  if (created.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(created.body)}`);
  plantId = created.body.data.id;
  const { devices } = await import('@sunward/server/db/schema');
  const [device] = await server.database.db
    .insert(devices)
    .values({ sn: 'DLIN000001', protocolId: 'sunspec-inverter-1p', family: 'inverter', plantId, gatewayId })
    .returning({ id: devices.id });
  // 100,000 cleared events over the last five days.
  await server.database.db.execute(sql`insert into device_events (device_id, plant_id, code, level, opened_at, cleared_at)
    select ${device?.id}, ${plantId}, 1001 + (g % 3), 'fault', now() - interval '5 days' + g * interval '4 seconds',
      now() - interval '5 days' + g * interval '4 seconds' + interval '2 seconds'
    from generate_series(1, ${EVENTS}) g`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('download centre', () => {
  it('prepares a 100,000-row event export in the background with a progress bar, then downloads it', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/device/event?quick=last7');
    await page.getByTestId('event-list').waitFor();
    await expect.poll(() => page.getByTestId('event-count-period').textContent()).toMatch(/100\D?000/);

    // More than a page: the export goes to the download centre.
    await page.getByTestId('event-export').click();
    await clickWhenOpen(page.getByTestId('event-export-csv'));
    await page.getByTestId('event-export-started').waitFor();
    await page.getByTestId('event-export-started').getByRole('link').click();
    await page.getByTestId('download-center').waitFor();

    // The progress bar shows while it is prepared (or the record is already done on a fast run).
    const row = page.locator('tr.ant-table-row').first();
    await expect.poll(() => row.textContent()).toMatch(/events-.*\.csv/);
    const progressSeen = await page
      .locator('[data-testid^="download-progress-"] .ant-progress')
      .first()
      .waitFor({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    await expect.poll(() => row.textContent(), { timeout: 90_000, interval: 500 }).toContain('Ready');
    expect(await row.textContent()).toMatch(/100\D?000/);
    if (!progressSeen) console.warn('the export finished before the progress bar was seen');

    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    const [file] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /Download/ }).click()]);
    expect(file.suggestedFilename()).toMatch(/^events-.*\.csv$/);
    const lines = readFileSync(await file.path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(EVENTS + 1);

    // The notification centre says it is ready: the bell counts it (pushed live) and its list names the file.
    const fileName = (await row.textContent())?.match(/events-\S+\.csv/)?.[0] ?? 'events-';
    await expect
      .poll(async () => Number((await page.getByTestId('notice-bell').locator('.ant-badge-count').getAttribute('title')) ?? '0'), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    await page.getByTestId('notice-bell').click();
    const notice = page.getByTestId('notice-item').filter({ hasText: 'Your file is ready' }).first();
    await notice.waitFor();
    expect(await notice.textContent()).toContain(fileName);
    await page.goBack();
    await page.getByTestId('download-center').waitFor();

    // Deleting removes it; the empty state says what to do.
    await row.getByRole('button', { name: /Delete/ }).click();
    await clickWhenOpen(page.locator('.ant-popconfirm:visible .ant-btn-primary'));
    await expect.poll(() => page.getByTestId('download-center').textContent()).toContain('No files yet');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('prepares an inverter list longer than a page in the download centre, the workbook of every inverter', async () => {
    const { devices } = await import('@sunward/server/db/schema');
    await server.database.db.insert(devices).values(
      Array.from({ length: 25 }, (_, i) => ({
        sn: `DLIN${String(i + 2).padStart(6, '0')}`,
        protocolId: 'sunspec-inverter-1p',
        family: 'inverter',
        plantId,
        gatewayId,
      })),
    );
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/device/inverter');
    await page.getByTestId('device-export').waitFor();
    await expect.poll(() => page.locator('tr.ant-table-row').count()).toBe(20);

    // 26 inverters, a page of 20: the export is handed to the download centre instead of downloaded here.
    await page.getByTestId('device-export').click();
    await page.getByTestId('device-export-started').waitFor();
    await page.getByTestId('device-export-started').getByRole('link').click();
    await page.getByTestId('download-center').waitFor();
    const row = page.locator('tr.ant-table-row').first();
    await expect.poll(() => row.textContent(), { timeout: 60_000, interval: 500 }).toContain('Ready');
    expect(await row.textContent()).toMatch(/inverters-.*\.xlsx/);
    const [file] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /Download/ }).click()]);
    expect(file.suggestedFilename()).toMatch(/^inverters-.*\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await file.path());
    expect(book.worksheets[0]?.rowCount).toBe(27);
    expect(errors).toEqual([]);
    await context.close();
  });
});
