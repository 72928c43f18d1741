import { readFileSync } from 'node:fs';
import type { PlantCreate } from '@sunward/contracts/plants';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The API tests' gateway, speaking the real MQTT protocol (not among @sunward/server's exports yet).
import { connectTestGateway, type TestGateway } from '../apps/server/src/test/test-gateway.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

const HOUR = 3_600_000;

let server: TestServer;
let browser: Browser;
let gateway: TestGateway;
let plantId: number;

/**
 * One plant whose devices report over MQTT with event bits set: the inverter raises a ground fault
 * (1001, still open) and an AC-switch warning (1003, cleared an hour later); the hybrid a DC
 * over-voltage protection (1002, open); the meter reports nothing wrong.
 */
beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const adminToken = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const key = 'eventlistkey1';
  const gatewayId = await server.registerGateway('GWEL000001', key);
  const body: PlantCreate = {
    name: 'Event Browser Plant',
    capacityKwp: 15,
    plantType: 1,
    latitude: 48.2,
    longitude: 16.37,
    timezone: 'Europe/Vienna',
    meteringTopology: 'net',
    gateways: [{ sn: 'GWEL000001', key }],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token: adminToken, json: body });
  if (created.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(created.body)}`);
  plantId = created.body.data.id;
  const { devices } = await import('@sunward/server/db/schema');
  await server.database.db.insert(devices).values([
    { sn: 'ELIN000001', protocolId: 'sunspec-inverter-1p', family: 'inverter', alias: 'Carport', plantId, gatewayId },
    { sn: 'ELHY000001', protocolId: 'sunspec-hybrid-lv', family: 'hybrid_inverter', plantId, gatewayId },
    { sn: 'ELMT000001', protocolId: 'sunspec-meter-3p', family: 'meter', plantId, gatewayId },
  ]);
  await server.telemetry.pipeline.reloadDevices();
  gateway = await connectTestGateway(server.telemetry.mqttPort, 'GWEL000001', key);
  const now = Date.now();
  await gateway.report(now - 3 * HOUR, [
    { sn: 'ELIN000001', proto: 'sunspec-inverter-1p', values: { W: 1200, St: 7, Evt1: 0b101 } },
    { sn: 'ELHY000001', proto: 'sunspec-hybrid-lv', values: { W: 2100, St: 4, Evt1: 0 } },
    { sn: 'ELMT000001', proto: 'sunspec-meter-3p', values: { W: 300, Evt: 0 } },
  ]);
  await gateway.report(now - 2 * HOUR, [
    { sn: 'ELIN000001', proto: 'sunspec-inverter-1p', values: { W: 1200, St: 7, Evt1: 0b001 } },
    { sn: 'ELHY000001', proto: 'sunspec-hybrid-lv', values: { W: 2100, St: 4, Evt1: 0b010 } },
    { sn: 'ELMT000001', proto: 'sunspec-meter-3p', values: { W: 300, Evt: 0 } },
  ]);
  await server.telemetry.pipeline.drain();
});

afterAll(async () => {
  await gateway?.close();
  await browser?.close();
  await server?.close();
});

/** The event codes the table shows, top to bottom, once they settle on `codes`. */
async function expectCodes(page: Page, codes: number[]) {
  await expect
    .poll(async () => (await page.locator('tr.ant-table-row td:nth-child(3)').allTextContents()).map(Number), { timeout: 30_000 })
    .toEqual(codes);
}

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await clickWhenOpen(page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first());
}

describe('event list', () => {
  it('shows the events, narrows by level, status and the count tags, and exports the filtered rows as CSV', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/device/event');
    await page.getByTestId('event-list').waitFor();

    // Newest first: the protection (2 h ago), then the warning and the fault of 3 h ago.
    await expectCodes(page, [1002, 1003, 1001]);
    await expect.poll(() => page.getByTestId('event-count-fault').textContent()).toContain('1');
    await expect.poll(() => page.getByTestId('event-count-open').textContent()).toContain('2');
    await expect(page.getByTestId('event-active').count()).resolves.toBe(2);
    await expect(page.locator('tr.ant-table-row', { hasText: '1001' }).textContent()).resolves.toContain('Event Browser Plant');
    await expect(page.locator('tr.ant-table-row', { hasText: '1001' }).textContent()).resolves.toContain('Carport');

    // Level: faults only.
    await pick(page, 'event-level', 'Fault');
    await page.keyboard.press('Escape');
    await expectCodes(page, [1001]);
    expect(new URL(page.url()).searchParams.get('level')).toBe('fault');

    // The description and solution unfold under the row.
    await page.locator('tr.ant-table-row', { hasText: '1001' }).locator('.ant-table-row-expand-icon').click();
    await expect(page.getByTestId('event-detail').textContent()).resolves.toMatch(/Ground fault.*Solution.*insulation/);

    // Status: the cleared warning (with the level filter cleared).
    await page.getByTestId('event-level').locator('.ant-select-clear').click({ force: true });
    await expectCodes(page, [1002, 1003, 1001]);
    await pick(page, 'event-status', 'Cleared');
    await expectCodes(page, [1003]);

    // A count tag filters to that level's open events.
    await page.getByTestId('event-count-protect').click();
    await expectCodes(page, [1002]);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ level: 'protect', status: 'active' });

    // Filters live in the address: reopening it shows the same rows; then faults and protections, exported.
    await page.goto('/device/event?level=fault,protect&quick=last3');
    await expectCodes(page, [1002, 1001]);
    await page.getByTestId('event-export').click();
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('event-export-csv').click()]);
    expect(file.suggestedFilename()).toMatch(/^events-.*\.csv$/);
    const text = readFileSync(await file.path(), 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines[0]).toMatch(/^Level,Event code,Device SN,/);
    expect(lines.slice(1).map((l) => l.split(',').slice(1, 3))).toEqual([
      ['1002', 'ELHY000001'],
      ['1001', 'ELIN000001'],
    ]);

    // A device SN nothing matches: the empty state says what it means.
    await page.goto('/device/event?sn=NOPE');
    await expect(page.getByTestId('event-empty').textContent()).resolves.toContain('No event matches these filters');
    await page.goto(`/device/event?plant=${plantId + 1000}`);
    await expect(page.getByTestId('event-empty').textContent()).resolves.toContain('No event matches these filters');

    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a user of another company no events, with the empty state that says devices run normally', async () => {
    const company = await server.createCompany('Elsewhere Energy');
    const user = await server.createUser('company_admin', undefined, { companyId: company });
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, user.account, user.password, '/device/event');
    await expect(page.getByTestId('event-empty').textContent()).resolves.toContain(
      'No events in this period — devices are running normally',
    );
    await expect.poll(() => page.getByTestId('event-count-open').textContent()).toContain('0');
    expect(await page.locator('tr.ant-table-row').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends an export of more than 20,000 rows to the download centre instead of refusing it', async () => {
    await server.database.db.execute(sql`
      insert into device_events (device_id, plant_id, code, level, opened_at, cleared_at)
      select d.id, d.plant_id, 2003, 'fault', now() - interval '2 days' + i * interval '1 second', now() - interval '1 day'
      from devices d cross join generate_series(1, 20001) as i where d.sn = 'ELMT000001'`);
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/device/event');
    await expect.poll(() => page.locator('.ant-pagination-total-text').textContent()).toContain('20,004');
    await page.getByTestId('event-export').click();
    await page.getByTestId('event-export-xlsx').click();
    // Past a page the export runs in the background (no row cap); the 20,000-row refusal (706) is for immediate
    // downloads only (events.api.test.ts).
    await expect.poll(() => page.locator('.ant-message').textContent()).toContain('download centre');
    expect(errors).toEqual([]);
    await context.close();
  });
});
