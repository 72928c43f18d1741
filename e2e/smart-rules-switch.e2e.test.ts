import { CommandPayloadSchema, gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { PlantCreate } from '@sunward/contracts/plants';
import { devices } from '@sunward/server/db/schema';
import { call, signIn } from '@sunward/server/test/client';
import type { TestServer } from '@sunward/server/test/harness';
import { connectTestGateway, type TestGateway } from '@sunward/server/test/test-gateway';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

/*
 * Issue 22: the AC switch entry appears in the menu only once the company enables the smart switch app in the
 * application centre; a rule "PV surplus > 2 kW → AC switch on", saved with the password, switches the switch on
 * over the gateway protocol once the plant crosses it, and the AC switch list shows it on.
 */

let server: TestServer;
let browser: Browser;
let gateway: TestGateway;
let account: { account: string; password: string };
let token: string;
let plantId: number;
const GATEWAY = { sn: 'GWRULESW01', key: 'gwrulesw01key' };
const INVERTER = 'RULESWINV1';
const SWITCH = 'SWRULEE2E1';
/** The emulated switch behind the gateway: off at first; the Conn writes it received. */
const device = { St: 0, Evt: 1 << 9, writes: [] as number[] };

const reportPower = (w: number) => gateway.report(Date.now(), [{ sn: INVERTER, proto: 'sunspec-inverter-1p', values: { W: w, St: 4 } }]);
const reportSwitch = () =>
  gateway.report(Date.now(), [{ sn: SWITCH, proto: 'vendor-ac-switch', values: { St: device.St, Evt: device.Evt, Conn: device.St } }]);

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const companyId = await server.createCompany('Relay Rules Ltd');
  account = await server.createUser('company_admin', 'relay-admin@example.com', { companyId });
  token = (await signIn(server.app, account.account, account.password)).access_token;
  const gatewayId = await server.registerGateway(GATEWAY.sn, GATEWAY.key, companyId);
  const body: PlantCreate = {
    name: 'Relay Barn',
    capacityKwp: 8,
    plantType: 1,
    latitude: 48.2,
    longitude: 16.4,
    timezone: 'Europe/Vienna',
    meteringTopology: 'net',
    gateways: [GATEWAY],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token, json: body });
  if (created.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(created.body)}`);
  plantId = created.body.data.id;
  await server.database.db.insert(devices).values({
    sn: INVERTER,
    protocolId: 'sunspec-inverter-1p',
    family: 'inverter',
    model: 'sunspec-inverter-1p',
    plantId,
    gatewayId,
  });
  gateway = await connectTestGateway(server.telemetry.mqttPort, GATEWAY.sn, GATEWAY.key);
  gateway.client.on('message', (_topic, payload) => {
    const command = CommandPayloadSchema.parse(JSON.parse(payload.toString('utf8')));
    const conn = command.params?.Conn;
    if (conn !== undefined) {
      device.writes.push(conn);
      device.St = conn;
      device.Evt = conn === 0 ? 1 << 9 : 0;
    }
    const answer = conn === undefined ? { status: 'error', error: 'unsupported' } : { status: 'ok', values: { Conn: conn } };
    void gateway.client
      .publishAsync(gatewayTopic(GATEWAY.sn, 'reply'), JSON.stringify({ v: 1, id: command.id, ...answer }), { qos: 1 })
      .then(reportSwitch)
      .catch(() => undefined);
  });
  await gateway.client.subscribeAsync(gatewayTopic(GATEWAY.sn, 'cmd'), { qos: 1 });
  await reportPower(1000);
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await browser?.close();
  await server?.close();
});

describe('smart rules on AC switches', () => {
  it('shows AC switches once the app is enabled, and a surplus rule switches the switch on', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, account.account, account.password);
    const menu = page.getByRole('navigation', { name: 'main' });

    // The device group without the AC switch entry: the company has not enabled the app.
    await page.goto('/device/gateway/list');
    await menu.getByText('Gateways').first().waitFor();
    expect(await menu.getByText('Smart AC switches').count()).toBe(0);
    // Opened by its address anyway, the switch page says the app is off and leads to the application centre.
    await page.goto('/device/acSwitch');
    await page.getByTestId('app-not-enabled').getByText('This app is not enabled for your company.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Open the application centre' }).click();
    await page.getByTestId('app-center').waitFor();

    // The application centre: enabling smart switches and rules puts them in the menu.
    await page.getByTestId('user-menu').click();
    await clickWhenOpen(page.getByRole('menuitem', { name: 'Application centre' }));
    await page.getByTestId('app-center').waitFor();
    await page.getByTestId('app-smart_switch-enabled').click();
    await page.getByTestId('app-smart_rule-enabled').click();
    await menu.getByText('Smart rules').waitFor();
    await page.goto('/device/gateway/list');
    await menu.getByText('Smart AC switches').waitFor();

    // The switch is registered in the plant (as the AC switch tests do) and reports itself off.
    const added = await call<{ id: number }>(server.app, 'POST', '/api/v1/acSwitch/add', {
      token,
      json: { sn: SWITCH, key: 'relaykey1', alias: 'Boiler', plantId },
    });
    expect(added.body.code).toBe(0);
    await reportSwitch();
    await menu.getByText('Smart AC switches').click();
    const state = page.getByTestId(`ac-switch-state-${SWITCH}`);
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 30_000 }).toBe('off');

    // The rule: PV surplus above 2000 W → the boiler switch on, confirmed with the password.
    await menu.getByText('Smart rules').click();
    await page.getByTestId('rule-add').click();
    await page.locator('#rule-name').fill('Surplus boiler');
    await page.locator('#rule-plant').click();
    await clickWhenOpen(page.locator('.ant-select-dropdown:visible').getByText('Relay Barn', { exact: true }));
    await page.locator('#rule-surplus').fill('2000');
    await page.locator('#rule-device-0').click();
    await clickWhenOpen(page.locator('.ant-select-dropdown:visible').getByText(`Boiler (${SWITCH})`, { exact: true }));
    // A switch is on or off: no brightness; the password is asked instead.
    await expect.poll(() => page.locator('#rule-brightness-0').count()).toBe(0);
    await page.locator('#rule-password').fill(account.password);
    await page.locator('#rule-save').click();
    await page.getByRole('cell', { name: 'Surplus boiler', exact: true }).waitFor();

    // The plant crosses 2 kW: the switch is switched on once, and the list shows what it reports.
    await reportPower(2500);
    await expect.poll(() => device.writes, { timeout: 30_000 }).toEqual([1]);
    await reportPower(2600);
    await page.getByRole('cell', { name: 'Never' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Expand row' }).click();
    await page.getByText('Done', { exact: true }).first().waitFor();
    await menu.getByText('Smart AC switches').click();
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 30_000 }).toBe('on');
    expect(device.writes).toEqual([1]);
    expect(errors).toEqual([]);
  }, 120_000);
});
