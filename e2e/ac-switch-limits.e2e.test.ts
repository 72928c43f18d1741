import type { PlantCreate } from '@sunward/contracts/plants';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { devices } from '@sunward/server/db/schema';
import { call, signIn } from '@sunward/server/test/client';
import type { TestServer } from '@sunward/server/test/harness';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';
import { noonLongitude, runSimulator } from './support/simulator.js';

// Issue 22, spec 02 §5: an AC switch's limits are open (trip) / closed (reclose) pairs. A user opens the
// switch's limits from the AC switch list, writes the current limit's pair and sees the simulated switch confirm
// it over the real gateway protocol; a pair with the open value not above the closed one is refused in the form;
// then the load behind the switch passes the current limit, the switch trips, the list says so and the trip's
// alarm is in the plant's event list.
const SWITCH = 'SWLIM00001';
const GATEWAY = { sn: 'GWLIM00001', key: 'limkey0001' };
/**
 * A 100 kWp commercial site (a steady load, no appliances switching on): the switch carries 15 % of it, between
 * about 3.8 A per phase (night, Sunday) and 24 A (a weekday's busiest hour) whenever the test runs, so the
 * samples' 40 A limit and the 50 A the test writes never trip it, and the 2 A it writes at the end always does.
 */
const CAPACITY_KWP = 100;

let server: TestServer;
let browser: Browser;
let user: { account: string; password: string };
let plantId = 0;
let simulator: ReturnType<typeof runSimulator> | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const company = await server.createCompany('Limits Installers Ltd');
  user = await server.createUser('company_admin', 'installer@limits.test', { companyId: company });
  await server.registerGateway(GATEWAY.sn, GATEWAY.key, company);
  const token = (await signIn(server.app, user.account, user.password)).access_token;
  const longitude = noonLongitude();
  const plant: PlantCreate = {
    name: 'Limits Test Home',
    capacityKwp: CAPACITY_KWP,
    plantType: 3,
    latitude: 5,
    longitude,
    timezone: 'UTC',
    meteringTopology: 'net',
    gateways: [GATEWAY],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token, json: plant });
  if (created.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(created.body)}`);
  plantId = created.body.data.id;
  // The AC switch pages follow the application centre: the company enables the app, then registers the switch in the plant.
  const enabled = await call(server.app, 'POST', '/api/v1/component/apps/smart_switch/enable', { token, json: { enabled: true } });
  if (enabled.body.code !== 0) throw new Error(`app not enabled: ${JSON.stringify(enabled.body)}`);
  const added = await call(server.app, 'POST', '/api/v1/acSwitch/add', { token, json: { sn: SWITCH, key: 'limkey1', plantId } });
  if (added.body.code !== 0) throw new Error(`switch not added: ${JSON.stringify(added.body)}`);
  const fleet: SimulatedFleet = {
    seed: 2205,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    gateways: [
      {
        ...GATEWAY,
        intervalSeconds: 2,
        plant: { name: plant.name, latitude: 5, longitude, timezone: 'UTC', capacityKwp: CAPACITY_KWP, plantType: 3, load: 'commercial' },
        devices: [{ sn: SWITCH, protocolId: 'vendor-ac-switch', family: 'ac_switch' }],
      },
    ],
  };
  simulator = runSimulator(fleet);
  await vi.waitFor(
    async () => {
      const [found] = await server.database.db.select().from(devices).where(eq(devices.sn, SWITCH));
      if (!found) throw new Error('switch not reported yet');
    },
    { timeout: 30_000, interval: 250 },
  );
});

afterAll(async () => {
  simulator?.stop();
  await browser?.close();
  await server?.close();
});

/** Fills the current limit's pair in the open form. */
async function fillCurrentLimit(page: Page, open: number, closed: number) {
  await page.getByTestId('setting-ALim').fill(String(open));
  await page.getByTestId('setting-ALimRcl').fill(String(closed));
}

/** Writes the switch's limits with the password again and waits for the switch's confirmation. */
async function writeConfirmed(page: Page, confirmed: string) {
  const group = page.getByTestId('settings-group-setting/switch');
  await page.getByTestId('settings-write-setting/switch').click();
  await page.getByTestId('confirm-password').fill(user.password);
  await page.locator('#confirm-command').click();
  await expect.poll(() => group.getByTestId('settings-confirmed').textContent(), { timeout: 30_000 }).toContain(confirmed);
}

/** Opens the switch's limits from the AC switch list (its "Limits" button leads to the setting page). */
async function openLimits(page: Page) {
  await page.goto('/device/acSwitch');
  await page.getByTestId(`ac-switch-limits-${SWITCH}`).click();
  await page.waitForURL(/\/device\/setting\?keyword=SWLIM00001/);
  await page.getByTestId(`settings-open-${SWITCH}`).click();
  await page.getByTestId('settings-drawer').waitFor();
}

describe('AC switch limits', () => {
  it('writes the current limit as an open/closed pair the switch confirms, refuses a pair out of order, and shows a trip with its alarm', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, user.account, user.password, '/device/acSwitch');
    const state = page.getByTestId(`ac-switch-state-${SWITCH}`);
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 30_000 }).toBe('on');

    await openLimits(page);
    // Each limit's open and closed values side by side.
    const pair = page.getByTestId('setting-pair-ALim');
    await pair.getByTestId('setting-ALim').waitFor();
    await pair.getByTestId('setting-ALimRcl').waitFor();
    await page.getByTestId('setting-pair-VLimLo').getByText('The switch closes again above this value.').waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // An open value not above its closed value is refused in the form, before the password is asked.
    await fillCurrentLimit(page, 30, 40);
    await page.getByTestId('settings-write-setting/switch').click();
    await page.getByText('The open value (30) must exceed the closed value (40).').waitFor();
    expect(await page.getByTestId('confirm-password').count()).toBe(0);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // A pair in order: the switch confirms it, and then reports it.
    await fillCurrentLimit(page, 50, 45);
    await writeConfirmed(page, 'Current limit 50 A, Current limit, reclose value 45 A');
    await page.locator('.ant-drawer-close').click();
    await expect
      .poll(() => page.getByTestId(`settings-current-${SWITCH}`).textContent(), { timeout: 30_000, interval: 500 })
      .toContain('Current limit 50 A · Current limit, reclose value 45 A');

    // The load behind the switch (at least about 3.8 A per phase) passes a 2 A limit: the switch trips, and
    // stays open, since the current it would carry stays above the 1 A closed value.
    await page.getByTestId(`settings-open-${SWITCH}`).click();
    await page.getByTestId('settings-drawer').waitFor();
    await fillCurrentLimit(page, 2, 1);
    await writeConfirmed(page, 'Current limit 2 A, Current limit, reclose value 1 A');
    await page.goto('/device/acSwitch');
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 30_000 }).toBe('tripped');
    await expect.poll(() => state.textContent()).toContain('Tripped');

    // The trip's alarm in the plant's event list.
    await page.goto(`/device/event?plant=${plantId}`);
    await page.getByTestId('event-list').waitFor();
    await page.getByTestId('event-list').getByText('Over-current trip').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('event-list').getByText(SWITCH).first().waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
