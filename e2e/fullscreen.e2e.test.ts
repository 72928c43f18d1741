import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlantCreate } from '@sunward/contracts/plants';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTestGateway, type TestGateway } from '../apps/server/src/test/test-gateway.js';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

/*
 * Issue 20 (large-screen display): a display link made in the console opens the display without signing in, in
 * each of its three styles at 1920×1080 (screenshots in the temp dir), and is refused once revoked.
 */

const HOUR = 3_600_000;
const shots = mkdtempSync(join(tmpdir(), 'sunward-e2e-fullscreen-'));
let server: TestServer;
let browser: Browser;
const gateways: TestGateway[] = [];

async function reportingPlant(
  token: string,
  name: string,
  sn: string,
  latitude: number,
  longitude: number,
  values: Record<string, number>,
) {
  const key = `${sn.toLowerCase()}key`;
  const gatewayId = await server.registerGateway(`GW${sn}`, key);
  const body: PlantCreate = {
    name,
    capacityKwp: 12,
    plantType: 1,
    latitude,
    longitude,
    timezone: 'Europe/Vienna',
    meteringTopology: 'net',
    gateways: [{ sn: `GW${sn}`, key }],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token, json: body });
  if (created.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(created.body)}`);
  const plantId = created.body.data.id;
  const { devices } = await import('@sunward/server/db/schema');
  await server.database.db.insert(devices).values({ sn, protocolId: 'sunspec-inverter-1p', family: 'inverter', plantId, gatewayId });
  await server.telemetry.pipeline.reloadDevices();
  const gateway = await connectTestGateway(server.telemetry.mqttPort, `GW${sn}`, key);
  gateways.push(gateway);
  await gateway.report(Date.now() - 2 * HOUR, [{ sn, proto: 'sunspec-inverter-1p', values: { ...values, WH: 100_000 } }]);
  await gateway.report(Date.now() - 60_000, [{ sn, proto: 'sunspec-inverter-1p', values: { ...values, WH: 108_000 } }]);
  return plantId;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const harbour = await reportingPlant(token, 'Harbour Roof', 'FSIN000001', 48.21, 16.37, { W: 6400, St: 4, Evt1: 0 });
  // The harbour plant belongs to a company: a platform administrator makes that company's wall display.
  const { plants } = await import('@sunward/server/db/schema');
  const company = await server.createCompany('Harbour Energy');
  await server.database.db.update(plants).set({ companyId: company }).where(eq(plants.id, harbour));
  // The second plant has a ground fault open (event bit 0): a live alarm on the display.
  await reportingPlant(token, 'Hill Farm', 'FSIN000002', 47.07, 15.44, { W: 2100, St: 7, Evt1: 0b001 });
  await server.telemetry.pipeline.drain();
}, 120_000);

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await browser?.close();
  await server?.close();
});

/** A wall screen: a fresh browser context at 1920×1080 that has never signed in. */
async function wallScreen(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: server.url, locale: 'en-GB', viewport: { width: 1920, height: 1080 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

async function showsDisplay(page: Page, url: string, part: string, shot: string) {
  await page.goto(url);
  const display = page.getByTestId('fs-display');
  await display.waitFor();
  await expect.poll(() => display.getAttribute('data-part')).toBe(part);
  // Nothing overflows the window: no scrollbars at 1920×1080.
  expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
  if (part === 'all' || part === '3') await page.getByTestId('fs-top').locator('canvas').first().waitFor();
  if (part === 'all' || part === '2') await page.locator('.fs-map .leaflet-interactive').first().waitFor();
  await page.screenshot({ path: join(shots, `${shot}.png`) });
}

describe('large-screen display', () => {
  it('opens by display link without signing in in three styles, and is refused once the link is revoked', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/fullscreen/links');
    await page.getByTestId('page-title').waitFor();
    await page.getByTestId('display-link-new').click();
    await page.locator('#display-link-name').fill('Control room');
    await page.locator('#display-link-plants').click();
    // Each option once the list has opened (a click during its opening animation picked nothing on a loaded CI machine).
    for (const name of ['Harbour Roof', 'Hill Farm'])
      await clickWhenOpen(page.locator('.ant-select-dropdown:visible').getByText(name, { exact: true }));
    const picked = page.locator('.ant-select', { has: page.locator('#display-link-plants') }).locator('.ant-select-selection-item');
    await expect.poll(() => picked.allInnerTexts()).toEqual(['Harbour Roof', 'Hill Farm']);
    await page.locator('#display-link-name').click();
    await page.locator('#display-link-save').click();
    const url = page.getByTestId('display-link-url');
    await url.first().waitFor();
    const single = await url.first().inputValue();
    await page.locator('.ant-modal').getByText('Multiple screens', { exact: true }).click();
    await expect.poll(() => url.count()).toBe(3);
    const screens = await Promise.all([0, 1, 2].map((i) => url.nth(i).inputValue()));
    await page.locator('.ant-modal').getByText('Multiple pages (rotating)', { exact: true }).click();
    await page.locator('#display-link-seconds').fill('5');
    await expect.poll(() => url.first().inputValue()).toContain('seconds=5');
    const pages = await url.first().inputValue();
    expect(single).toMatch(/\/fullscreen\?style=single#key=/);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Done' }).click();

    const wall = await wallScreen();
    // Single page: every part at once, the fleet's figures from the plant list.
    await showsDisplay(wall.page, single, 'all', 'single');
    await expect.poll(() => wall.page.getByTestId('fs-power').textContent()).toContain('8.5');
    expect(await wall.page.getByTestId('fs-alarms').textContent()).toContain('Hill Farm');
    expect(await wall.page.locator('.fs-header h1').textContent()).toBe('Control room');
    expect(await seriousAccessibilityProblems(wall.page)).toEqual([]);
    // The same layout scaled to 1366×768 and to 4K: the whole stage inside the window, no scrollbars.
    for (const [width, height] of [
      [1366, 768],
      [3840, 2160],
    ] as const) {
      await wall.page.setViewportSize({ width, height });
      await expect
        .poll(async () => {
          const box = await wall.page.locator('.fs-stage').boundingBox();
          return box !== null && box.width <= width + 1 && box.height <= height + 1 && box.width >= width * 0.95;
        })
        .toBe(true);
      expect(await wall.page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
      await wall.page.screenshot({ path: join(shots, `single-${width}.png`) });
    }
    await wall.page.setViewportSize({ width: 1920, height: 1080 });
    // Multiple screens: each window its part.
    for (const [i, screen] of screens.entries()) await showsDisplay(wall.page, screen, String(i + 1), `screen-${i + 1}`);
    // Multiple pages: the parts turn every five seconds.
    await showsDisplay(wall.page, pages, '1', 'pages-1');
    await expect.poll(() => wall.page.getByTestId('fs-display').getAttribute('data-part')).toBe('2');
    await wall.page.screenshot({ path: join(shots, 'pages-2.png') });

    // Revoked in the console: the wall screen is refused with a clear message.
    await page.locator('[data-testid^="revoke-"]').first().click();
    await clickWhenOpen(page.locator('.ant-popconfirm .ant-btn-primary'));
    await page.locator('[data-state="revoked"]').waitFor();
    await wall.page.goto(single);
    await wall.page.getByTestId('fs-refused').waitFor();
    expect(await wall.page.getByTestId('fs-refused').textContent()).toContain('revoked');
    await wall.page.screenshot({ path: join(shots, 'revoked.png') });
    expect(await seriousAccessibilityProblems(wall.page)).toEqual([]);
    console.log(`fullscreen screenshots: ${shots}`);
    expect([...errors, ...wall.errors]).toEqual([]);
    await wall.context.close();
  }, 180_000);

  it('lets a platform administrator make a display link for a company picked by name, showing that company only', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/fullscreen/links');
    await page.getByTestId('display-link-new').click();
    await page.locator('#display-link-name').fill('Harbour wall');
    await page.getByText('Every plant of a company', { exact: true }).click();
    await page.locator('#display-link-company').click();
    await page.locator('#display-link-company').fill('harbour');
    await clickWhenOpen(page.locator('.ant-select-dropdown:visible').getByText('Harbour Energy', { exact: true }));
    await page.locator('#display-link-save').click();
    const url = page.getByTestId('display-link-url');
    await url.first().waitFor();
    const single = await url.first().inputValue();
    await page.getByRole('button', { name: 'Done' }).click();
    // The list names the company.
    await expect.poll(() => page.locator('.ant-table-row', { hasText: 'Harbour wall' }).textContent()).toContain('Harbour Energy');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    const wall = await wallScreen();
    await showsDisplay(wall.page, single, 'all', 'company-single');
    const map = wall.page.locator('.fs-map');
    await expect.poll(() => map.textContent()).toContain('Harbour Roof');
    expect(await map.textContent()).not.toContain('Hill Farm');
    expect(await wall.page.getByTestId('fs-flow').textContent()).toContain('only its generation is measured');
    expect(await wall.page.locator('.fs-header h1').textContent()).toBe('Harbour wall');
    expect([...errors, ...wall.errors]).toEqual([]);
    await wall.context.close();
    await context.close();
  }, 120_000);
});
