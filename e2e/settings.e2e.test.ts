import type { PlantCreate } from '@sunward/contracts/plants';
import type { ProtocolFile, ProtocolSave } from '@sunward/contracts/protocols';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';
import { noonLongitude, runSimulator } from './support/simulator.js';

// Issue 19: the setting pages write a simulated device's settings over the real protocol and show the
// values the device then reports.
const ZONE = 'Africa/Abidjan';
const INVERTER = 'INSET00001';
const HYBRID = 'HYSET00001';
const BMS = 'BTSET00001';
const HEAT_PUMP = 'HPSET00001';
/** A device of a brand whose protocol exists only in the console (played from its export file). */
const BRAND = 'BYSET00001';

let server: TestServer;
let browser: Browser;
let simulator: ReturnType<typeof runSimulator> | undefined;
let brandProtocolId = 0;

/** A brand's inverter protocol as an administrator makes it in the console: state, power and an export limit. */
function brandProtocol(): ProtocolSave {
  const point = (id: string, address: number, operation: 'r' | 'rw', extra: Record<string, unknown> = {}) => ({
    id,
    label: { en: id === 'PLim' ? 'Export limit' : id, zh: id },
    functionCode: 3 as const,
    address,
    count: 1,
    type: 'u16' as const,
    operation,
    ...extra,
  });
  return {
    identifier: 'brandy-inv',
    code: 'BRANDY-1',
    name: 'BrandY inv',
    manufacturer: 'BrandY',
    family: 'inverter',
    protocolVersion: '1.0',
    configurationVersion: '1',
    content: {
      title: { en: 'BrandY inverter', zh: 'BrandY 逆变器' },
      source: 'BrandY manual',
      points: [
        point('St', 0, 'r', { role: 'operating_state' }),
        point('Pac', 1, 'r', { unit: 'W', role: 'power', required: true }),
        point('PLim', 10, 'rw', { unit: '%', min: 0, max: 100 }),
      ],
      events: [],
    },
  };
}

/** A plant bound to a registered gateway, through the API. */
async function plantWithGateway(token: string, name: string, sn: string, key: string, longitude: number) {
  await server.registerGateway(sn, key);
  const body: PlantCreate = {
    name,
    capacityKwp: 12,
    plantType: 3,
    latitude: 5,
    longitude,
    timezone: ZONE,
    meteringTopology: 'net',
    gateways: [{ sn, key }],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const plant = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token, json: body });
  if (plant.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(plant.body)}`);
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const longitude = noonLongitude();
  await plantWithGateway(token, 'Settings Test Home', 'GWSET00001', 'setkey0001', longitude);
  await plantWithGateway(token, 'BrandY Home', 'GWSETBY001', 'setkeyby01', longitude);
  // The brand's protocol, made through the API as the console's pages make it, and exported for the simulator.
  const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/protocols', { token, json: brandProtocol() });
  if (created.body.code !== 0) throw new Error(`protocol not created: ${JSON.stringify(created.body)}`);
  brandProtocolId = created.body.data.id;
  const exported = await call<{ file: ProtocolFile }>(server.app, 'GET', `/api/v1/protocols/${brandProtocolId}/export`, { token });
  const fleet: SimulatedFleet = {
    seed: 19,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    gateways: [
      {
        sn: 'GWSET00001',
        key: 'setkey0001',
        intervalSeconds: 2,
        plant: { name: 'Settings Test Home', latitude: 5, longitude, timezone: ZONE, capacityKwp: 12, plantType: 3, load: 'household' },
        devices: [
          { sn: INVERTER, protocolId: 'sunspec-inverter-3p', family: 'inverter', ratedPowerW: 6000 },
          { sn: HYBRID, protocolId: 'sunspec-hybrid-hv', family: 'hybrid_inverter', ratedPowerW: 6000 },
          { sn: BMS, protocolId: 'sunspec-battery-bms', family: 'battery', capacityKwh: 10 },
          { sn: HEAT_PUMP, protocolId: 'vendor-heat-pump', family: 'heat_pump' },
        ],
      },
      {
        sn: 'GWSETBY001',
        key: 'setkeyby01',
        intervalSeconds: 2,
        plant: { name: 'BrandY Home', latitude: 5, longitude, timezone: ZONE, capacityKwp: 5, plantType: 1, load: 'household' },
        devices: [{ sn: BRAND, protocolId: 'brandy-inv', family: 'inverter', ratedPowerW: 5000 }],
      },
    ],
    protocols: [exported.body.data.file],
  };
  simulator = runSimulator(fleet);
  await vi.waitFor(
    async () => {
      const page = await call<{ total: number }>(server.app, 'GET', '/api/v1/settings/devices?scope=device&size=50', { token });
      if (page.body.data?.total !== 3) throw new Error('devices not discovered yet');
      const brand = await call(server.app, 'GET', `/api/v1/inverter/${BRAND}/params`, { token });
      if (brand.body.code !== 0) throw new Error('the brand’s device not discovered yet');
    },
    { timeout: 60_000, interval: 500 },
  );
});

afterAll(async () => {
  simulator?.stop();
  await browser?.close();
  await server?.close();
});

async function signedIn() {
  const opened = await openPage(browser, server.url);
  await signInThroughForm(opened.page, ADMIN.account, ADMIN.password);
  return opened;
}

/** Writes the open group with the password again and waits for the device's confirmation. */
async function writeGroup(page: Page, family: string, confirmed: string) {
  await page.getByTestId(`settings-write-${family}`).click();
  await page.getByTestId('confirm-password').fill(ADMIN.password);
  await page.locator('#confirm-command').click();
  await expect
    .poll(() => page.getByTestId(`settings-group-${family}`).getByTestId('settings-confirmed').textContent(), { timeout: 30_000 })
    .toContain(confirmed);
}

/** Opens a device's settings from the list, once its row is there. */
async function openSettings(page: Page, sn: string) {
  await page.getByTestId(`settings-open-${sn}`).click();
  await page.getByTestId('settings-drawer').waitFor();
}

describe('setting pages', () => {
  it('limits an inverter’s active power on /device/setting: the device confirms and reports the new value', async () => {
    const { page, errors, context } = await signedIn();
    await page.goto('/device/setting');
    await page.getByTestId('page-title').getByText('Parameter settings').waitFor();
    await page.getByTestId(`settings-current-${INVERTER}`).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    // The status column says the status in words (its texts load with the tag, not with the plant list).
    const row = page.locator('tr', { has: page.getByTestId(`settings-current-${INVERTER}`) });
    await expect.poll(() => row.locator('[data-status]').textContent()).toMatch(/^(Normal|Offline|Warning|Fault|Upgrading|Protection)/);

    await openSettings(page, INVERTER);
    const limit = page.getByTestId('setting-WMaxLimPct');
    await limit.fill('60');
    await writeGroup(page, 'dy/grid', 'Active power limit (% of rated) 60 %');
    // The list shows what the device reports after the write, not what was typed.
    await page.locator('.ant-drawer-close').click();
    await expect
      .poll(() => page.getByTestId(`settings-current-${INVERTER}`).textContent(), { timeout: 30_000, interval: 500 })
      .toContain('Active power limit (% of rated) 60 %');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('changes the heat pump’s mode to cooling, then to standby, and shows what it reports', async () => {
    const { page, errors, context } = await signedIn();
    await page.goto('/device/setting');
    await page.getByTestId(`settings-current-${HEAT_PUMP}`).waitFor();
    await openSettings(page, HEAT_PUMP);
    const group = page.getByTestId('settings-group-mt/setting');
    for (const mode of ['Cooling', 'Standby']) {
      await group.getByTestId('setting-Mode').click();
      await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: mode }).first());
      await writeGroup(page, 'mt/setting', `Operating mode ${mode}`);
    }
    await page.locator('.ant-drawer-close').click();
    await expect
      .poll(() => page.getByTestId(`settings-current-${HEAT_PUMP}`).textContent(), { timeout: 30_000, interval: 500 })
      .toContain('Operating mode Standby');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sets a hybrid’s battery SOC maximum on /device/batt-setting and refuses a value outside the protocol’s range', async () => {
    const { page, errors, context } = await signedIn();
    await page.goto('/device/batt-setting');
    await page.getByTestId('page-title').getByText('Battery parameter settings').waitFor();
    await page.getByTestId(`settings-current-${BMS}`).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await openSettings(page, HYBRID);
    const group = page.getByTestId('settings-group-dy/store/threePhase');
    // Outside the protocol's 50–100: the form says so and nothing is sent.
    await group.getByTestId('setting-SocRsvMax').fill('30');
    await group.getByTestId('settings-write-dy/store/threePhase').click();
    await group.locator('.ant-form-item-explain-error', { hasText: 'Between 50 and 100' }).waitFor();
    expect(await page.getByTestId('confirm-password').count()).toBe(0);

    await group.getByTestId('setting-SocRsvMax').fill('90');
    await writeGroup(page, 'dy/store/threePhase', 'Maximum SOC (charging stops) 90 %');
    await page.locator('.ant-drawer-close').click();
    await expect
      .poll(() => page.getByTestId(`settings-current-${HYBRID}`).textContent(), { timeout: 30_000, interval: 500 })
      .toContain('Maximum SOC (charging stops) 90 %');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the form of a settings group an administrator adds to a new brand’s protocol in the browser, and the simulated device confirms its write', async () => {
    // The administrator puts the export limit into the asw group in the register editor: a new version.
    const { page, errors, context } = await signedIn();
    await page.goto(`/system/protocols/${brandProtocolId}/edit`);
    await page.getByTestId('protocol-settings-groups').waitFor();
    await page.locator('#settings-group-asw').click();
    await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: 'PLim' }).first());
    await page.keyboard.press('Escape');
    await page.locator('#protocol-save').click();
    await page.waitForURL((url) => url.pathname === '/system/protocols');

    await page.goto('/device/setting?keyword=BYSET');
    await page.getByTestId(`settings-current-${BRAND}`).waitFor();
    await openSettings(page, BRAND);
    await page.getByTestId('settings-group-asw').getByTestId('setting-PLim').fill('40');
    await writeGroup(page, 'asw', 'Export limit 40 %');
    await page.locator('.ant-drawer-close').click();
    await expect
      .poll(() => page.getByTestId(`settings-current-${BRAND}`).textContent(), { timeout: 30_000, interval: 500 })
      .toContain('Export limit 40 %');
    expect(errors).toEqual([]);
    await context.close();
  });
});
