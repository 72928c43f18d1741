import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTestGateway } from '../apps/server/src/test/test-gateway.js';
import { seriousAccessibilityProblems } from './support/axe.js';
import { launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

/*
 * Issue 21: the logs. A gateway (the API tests' MQTT gateway, the real protocol) disconnects and connects
 * again; the communication log shows both connections and the disconnect with its reason and session
 * length, and a report it cannot read as refused with the reason. A renamed inverter shows in the maintenance
 * log's equipment changes.
 */

let server: TestServer;
let browser: Browser;
let adminToken: string;
let deviceId = 0;
const SN = 'GWLOG00001';
const KEY = 'logkey0001';

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  adminToken = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const gatewayId = await server.registerGateway(SN, KEY);
  const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', {
    token: adminToken,
    json: {
      name: 'Log Plant',
      capacityKwp: 8,
      plantType: 1,
      latitude: 48.2,
      longitude: 16.37,
      timezone: 'Europe/Vienna',
      meteringTopology: 'net',
      gateways: [{ sn: SN, key: KEY }],
      tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
    },
  });
  if (created.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(created.body)}`);
  const { devices } = await import('@sunward/server/db/schema');
  const [device] = await server.database.db
    .insert(devices)
    .values({ sn: 'LOGIN00001', protocolId: 'sunspec-inverter-1p', family: 'inverter', plantId: created.body.data.id, gatewayId })
    .returning({ id: devices.id });
  deviceId = device?.id ?? 0;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('logs', () => {
  it("shows a gateway's reconnect in the communication log", async () => {
    const first = await connectTestGateway(server.telemetry.mqttPort, SN, KEY);
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/log/communication');
    const log = page.getByTestId('connection-log');
    await log.locator('tr', { hasText: SN }).locator('[data-kind="connect"]').first().waitFor();

    // The gateway drops its connection and comes back.
    await first.close();
    const second = await connectTestGateway(server.telemetry.mqttPort, SN, KEY);
    const disconnect = log.locator('tr', { hasText: SN }).filter({ has: page.locator('[data-kind="disconnect"]') });
    await disconnect.first().waitFor({ timeout: 30_000 });
    expect(await disconnect.first().textContent()).toContain('closed by the gateway');
    expect(await disconnect.first().textContent()).toMatch(/\d+ s/);
    await expect.poll(() => log.locator('[data-kind="connect"]').count()).toBe(2);

    // A report the server cannot read is refused, and the log says why.
    await second.client.publishAsync(gatewayTopic(SN, 'report'), 'not a report', { qos: 1 });
    const refused = log.locator('tr', { hasText: SN }).filter({ has: page.locator('[data-kind="refused"]') });
    await refused.first().waitFor({ timeout: 30_000 });
    expect(await refused.first().textContent()).toMatch(/invalid|malformed|json/i);

    // Narrowed to disconnects.
    await page.goto('/log/communication?kind=disconnect');
    await expect.poll(() => log.locator('tr.ant-table-row').count()).toBe(1);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await second.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lists changes to equipment in the maintenance log', async () => {
    const renamed = await call(server.app, 'POST', `/api/v1/inverter/${deviceId}/alias`, { token: adminToken, json: { alias: 'Garage' } });
    expect(renamed.body.code).toBe(0);
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/log/uphold');
    await page.getByRole('tab', { name: 'Changes to equipment' }).click();
    const row = page.getByTestId('maintenance-log').locator('tr', { hasText: 'LOGIN00001' });
    await row.first().waitFor();
    expect(await row.first().textContent()).toMatch(/inverter\.alias.*Done/);
    expect(new URL(page.url()).searchParams.get('tab')).toBe('changes');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // The debug log exports through the download centre too.
    await page.goto('/log/debug');
    await page.getByTestId('command-log-export').click();
    await page.getByTestId('log-export-started').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
