import type { PlantCreate } from '@sunward/contracts/plants';
import { devices } from '@sunward/server/db/schema';
import { call, signIn } from '@sunward/server/test/client';
import type { TestServer } from '@sunward/server/test/harness';
import { connectTestGateway, type TestGateway } from '@sunward/server/test/test-gateway';
import { type LightBridge, startLightBridge } from '@sunward/simulator/light-bridge';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

/*
 * Issue 22 (smart bulbs, rules, application centre): a company administrator enables the apps, connects the
 * simulated bulb bridge through its OAuth page, binds a bulb to a plant and makes the rule "PV surplus > 2 kW →
 * bulb on at 80 %", which fires exactly once when the plant crosses it; after the authorisation is revoked the
 * rule's next firing is refused, with the reason in its run history.
 */

let server: TestServer;
let browser: Browser;
let bridge: LightBridge;
let gateway: TestGateway;
let account: { account: string; password: string };
let token: string;
const INVERTER = 'SMARTINV01';

beforeAll(async () => {
  bridge = await startLightBridge();
  [server, browser] = await Promise.all([startProduct(bridge.settings), launchBrowser()]);
  const companyId = await server.createCompany('Smart Works');
  account = await server.createUser('company_admin', 'smart-admin@example.com', { companyId });
  token = (await signIn(server.app, account.account, account.password)).access_token;
  const sn = 'GWSMART01';
  const key = 'gwsmart01key';
  const gatewayId = await server.registerGateway(sn, key, companyId);
  const body: PlantCreate = {
    name: 'Sunny Barn',
    capacityKwp: 8,
    plantType: 1,
    latitude: 48.2,
    longitude: 16.4,
    timezone: 'Europe/Vienna',
    meteringTopology: 'net',
    gateways: [{ sn, key }],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token, json: body });
  if (created.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(created.body)}`);
  await server.database.db.insert(devices).values({
    sn: INVERTER,
    protocolId: 'sunspec-inverter-1p',
    family: 'inverter',
    model: 'sunspec-inverter-1p',
    plantId: created.body.data.id,
    gatewayId,
  });
  gateway = await connectTestGateway(server.telemetry.mqttPort, sn, key);
  await reportPower(1000);
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await browser?.close();
  await server?.close();
  await bridge?.close();
});

/** The plant's inverter reports this PV power (no load measured: the surplus is the PV power). */
const reportPower = (w: number) => gateway.report(Date.now(), [{ sn: INVERTER, proto: 'sunspec-inverter-1p', values: { W: w, St: 4 } }]);
const ruleRuns = async () => {
  const rules = await call<{ id: number }[]>(server.app, 'GET', '/api/v1/smart/rule', { token });
  const id = rules.body.data[0]?.id;
  if (id === undefined) return [];
  return (await call<{ outcome: string }[]>(server.app, 'GET', `/api/v1/smart/rule/${id}/runs`, { token })).body.data;
};

describe('smart home', () => {
  it('connects the bulb bridge, binds a bulb, fires a surplus rule once, and revoking stops it with a message', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, account.account, account.password);

    // The application centre: enabling the bulbs and rules puts them in the menu.
    await page.getByTestId('user-menu').click();
    await clickWhenOpen(page.getByRole('menuitem', { name: 'Application centre' }));
    await page.getByTestId('app-center').waitFor();
    // Cameras are listed (enabled once the platform administrator granted the video service: video.e2e.test.ts).
    await page.getByTestId('app-camera').waitFor();
    // Not granted to this company yet: the card says whom to ask, and its switch cannot be turned on.
    await page.getByTestId('app-camera-grant-missing').waitFor();
    expect(await page.getByTestId('app-camera-enabled').isDisabled()).toBe(true);
    const menu = page.getByRole('navigation', { name: 'main' });
    await expect.poll(() => menu.getByText('Smart bulbs').count()).toBe(0);
    await page.getByTestId('app-smart_bulb-enabled').click();
    await page.getByTestId('app-smart_rule-enabled').click();
    await menu.getByText('Smart rules').waitFor();

    // Connect the bridge: its authorisation page sends the browser back with code and state.
    await menu.getByText('Smart bulbs').click();
    await page.getByTestId('lights-page').waitFor();
    await page.getByTestId('bridge-connect').click();
    await page.getByTestId('bridge-authorisation').getByText('Authorised').waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.getByRole('cell', { name: 'Porch', exact: true }).waitFor();

    // Bind the porch bulb to the plant.
    const porchRow = page.getByRole('row', { name: /Porch/ });
    await porchRow.locator('.ant-select').click();
    await clickWhenOpen(page.locator('.ant-select-dropdown:visible').getByText('Sunny Barn', { exact: true }));
    await page.getByText('Saved').first().waitFor();

    // The rule: PV surplus above 2000 W → porch on at 80 %.
    await menu.getByText('Smart rules').click();
    await page.getByTestId('rule-add').click();
    await page.locator('#rule-name').fill('Surplus porch');
    await page.locator('#rule-plant').click();
    await clickWhenOpen(page.locator('.ant-select-dropdown:visible').getByText('Sunny Barn', { exact: true }));
    await page.locator('#rule-surplus').fill('2000');
    await page.locator('#rule-device-0').click();
    await clickWhenOpen(page.locator('.ant-select-dropdown:visible').getByText('Porch', { exact: true }));
    await page.locator('#rule-save').click();
    await page.getByRole('cell', { name: 'Surplus porch', exact: true }).waitFor();

    // The plant crosses 2 kW: the bulb goes on at 80 % (Hue 203) once; more reports above do not repeat it.
    await reportPower(2500);
    await expect.poll(() => bridge.bulbs.get('1')?.on).toBe(true);
    expect(bridge.bulbs.get('1')?.bri).toBe(203);
    await reportPower(2600);
    await reportPower(2400);
    await page.getByRole('cell', { name: 'Never' }).waitFor({ state: 'detached' });
    await expect.poll(async () => (await ruleRuns()).length).toBe(1);
    expect(bridge.commands).toHaveLength(1);

    // Revoke the bridge authorisation.
    await menu.getByText('Smart bulbs').click();
    await page.getByTestId('bridge-revoke').click();
    await clickWhenOpen(page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'OK' }));
    await page.getByTestId('bridge-authorisation').getByText('Authorisation cancelled').waitFor();

    // Started afresh (off and on), the rule fires again at the next crossing, and the refusal is in its history.
    await menu.getByText('Smart rules').click();
    const enabled = page.locator('[data-testid^="rule-enabled-"]');
    await enabled.click();
    await expect.poll(() => enabled.getAttribute('aria-checked')).toBe('false');
    await enabled.click();
    await expect.poll(() => enabled.getAttribute('aria-checked')).toBe('true');
    await reportPower(3000);
    await expect.poll(async () => (await ruleRuns()).length).toBe(2);
    await page.getByRole('button', { name: 'Expand row' }).click();
    await page.getByText('Failed', { exact: true }).first().waitFor();
    await page.getByText(/authorisation was cancelled/).waitFor();
    expect(bridge.commands).toHaveLength(1);
    expect(errors).toEqual([]);
  }, 120_000);
});
