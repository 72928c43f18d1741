import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PlantCreate } from '@sunward/contracts/plants';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { call, multipartBody, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';
import { noonLongitude, runSimulator } from './support/simulator.js';

// Battery and gateway upgrades as a user does them: from a battery's page, as a checked batch from the
// battery list, and from the gateway list; then the upgrade records filtered and exported. The simulated
// devices verify every image's signature with the platform's public key.
const ZONE = 'Africa/Abidjan';
const GATEWAY = 'GWUPG00001';
const MASTER = 'BTUPG00001';
const SLAVE = 'BTUPG00002';

let server: TestServer;
let browser: Browser;
let token: string;
let simulator: ReturnType<typeof runSimulator> | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const longitude = noonLongitude();
  await server.registerGateway(GATEWAY, 'upgkey0001');
  const body: PlantCreate = {
    name: 'Upgrade Bank',
    capacityKwp: 10,
    plantType: 3,
    latitude: 5,
    longitude,
    timezone: ZONE,
    meteringTopology: 'net',
    gateways: [{ sn: GATEWAY, key: 'upgkey0001' }],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const plant = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token, json: body });
  if (plant.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(plant.body)}`);
  const publicKey = await call<{ publicKey: string }>(server.app, 'GET', '/api/v1/firmware/publicKey', { token });
  const fleet: SimulatedFleet = {
    seed: 13,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    gateways: [
      {
        sn: GATEWAY,
        key: 'upgkey0001',
        intervalSeconds: 2,
        plant: { name: 'Upgrade Bank', latitude: 5, longitude, timezone: ZONE, capacityKwp: 10, plantType: 3, load: 'household' },
        devices: [
          { sn: 'HYUPG00001', protocolId: 'sunspec-hybrid-lv', family: 'hybrid_inverter', ratedPowerW: 10_000 },
          { sn: MASTER, protocolId: 'sunspec-battery-bms', family: 'battery', capacityKwh: 12 },
          { sn: SLAVE, protocolId: 'sunspec-battery-bms', family: 'battery', parentSn: MASTER },
        ],
      },
    ],
  };
  simulator = runSimulator(fleet, { upgradeStepMs: 300, firmwareKey: publicKey.body.data?.publicKey });
  await vi.waitFor(
    async () => {
      const batteries = await call<{ total: number }>(server.app, 'GET', '/api/v1/batteries', { token });
      if (batteries.body.data?.total !== 2) throw new Error('batteries not discovered yet');
    },
    { timeout: 60_000, interval: 500 },
  );
});

afterAll(async () => {
  simulator?.stop();
  await browser?.close();
  await server?.close();
});

function image(name: string) {
  const bytes = randomBytes(8192);
  bytes[0] = 0;
  return { bytes, fileName: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}.bin`, md5: createHash('md5').update(bytes).digest('hex') };
}

async function upload(url: string, fields: Record<string, string>, file: { bytes: Buffer; fileName: string }): Promise<number> {
  const { payload, contentType } = multipartBody(fields, { name: file.fileName, bytes: file.bytes });
  const created = await server.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  const answer = created.json() as { code: number; data: { id: number } };
  if (answer.code !== 0) throw new Error(JSON.stringify(answer));
  return answer.data.id;
}

/** A battery image in the battery firmware library (types and product first), enabled. */
async function batteryImage(name: string, version: string): Promise<void> {
  const primary = await call<{ id: number }>(server.app, 'POST', '/api/v1/firmware/batteryType/add', {
    token,
    json: { name: `LFP ${name}` },
  });
  const secondary = await call<{ id: number }>(server.app, 'POST', '/api/v1/firmware/batteryType/add', {
    token,
    json: { name: `Rack ${name}`, parentId: primary.body.data?.id },
  });
  const product = await call<{ id: number }>(server.app, 'POST', '/api/v1/battery/product', {
    token,
    json: { name: `Bank ${name}`, manufacturer: 'Sunward', model: 'B12', batteryTypeId: secondary.body.data?.id },
  });
  const file = image(name);
  const id = await upload(
    '/api/v1/firmware/battery/save',
    {
      name,
      batteryTypeId: String(secondary.body.data?.id),
      batteryProductId: String(product.body.data?.id),
      swVersion: version,
      mode: 'remote',
      fileName: file.fileName,
      md5: file.md5,
    },
    file,
  );
  await call(server.app, 'POST', `/api/v1/firmware/battery/${id}/enable`, { token, json: { enabled: true } });
}

async function gatewayImage(name: string, version: string): Promise<void> {
  const file = image(name);
  const id = await upload(
    '/api/v1/firmware',
    {
      name,
      manufacturer: 'Sunward',
      product: 'SWG-4G',
      swVersion: version,
      type: 'gateway',
      mode: 'remote',
      fileName: file.fileName,
      md5: file.md5,
    },
    file,
  );
  await call(server.app, 'POST', `/api/v1/firmware/${id}/enable`, { token, json: { enabled: true } });
}

async function signedIn() {
  const opened = await openPage(browser, server.url);
  await signInThroughForm(opened.page, ADMIN.account, ADMIN.password);
  return opened;
}

// Each test drives whole upgrades through the simulator; they take longer than a page check.
describe('battery and gateway upgrades', { timeout: 120_000 }, () => {
  it('upgrades the battery master from its page; a slave’s page says it goes with its master', async () => {
    await batteryImage('BMS-3.1.0', '3.1.0');
    const { page, errors, context } = await signedIn();
    await page.goto(`/device/detail/battery/${SLAVE}`);
    await page.getByTestId('slave-note').waitFor();
    await page.goto(`/device/detail/battery/${MASTER}`);
    await page.getByTestId('upgrade-firmware').click();
    await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: 'BMS-3.1.0' }));
    await page.getByTestId('upgrade-start').click();
    await page.getByTestId('confirm-password').fill(ADMIN.password);
    await page.locator('#confirm-command').click();
    await expect
      .poll(() => page.getByTestId('upgrade-state').getAttribute('data-state'), { timeout: 40_000, interval: 300 })
      .toBe('successful');
    expect(await page.getByTestId('upgrade-state').textContent()).toContain('Upgraded to 3.1.0');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('checks a batch of batteries, upgrades the ready master and shows it to the end', async () => {
    await batteryImage('BMS-3.2.0', '3.2.0');
    const { page, errors, context } = await signedIn();
    await page.goto('/device/battery');
    for (const sn of [MASTER, SLAVE]) await page.locator('tr', { hasText: sn }).locator('.ant-checkbox-input').check();
    await page.getByTestId('battery-batch-upgrade').click();
    const modal = page.getByTestId('battery-batch-modal');
    await modal.getByTestId('batch-firmware').click();
    await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: 'BMS-3.2.0' }));
    await modal.getByTestId('batch-check').click();
    const results = modal.getByTestId('batch-check-results');
    await results.locator('tr', { hasText: SLAVE }).locator('[data-ready="false"]').waitFor();
    expect(await results.locator('tr', { hasText: SLAVE }).textContent()).toContain('master');
    await results.locator('tr', { hasText: MASTER }).locator('[data-ready="true"]').waitFor();
    await modal.getByTestId('batch-password').fill(ADMIN.password);
    await modal.getByTestId('batch-start').click();
    await expect
      .poll(() => modal.getByTestId('batch-item').first().getAttribute('data-state'), { timeout: 40_000, interval: 300 })
      .toBe('successful');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('upgrades the gateway from the gateway list and lists the upgrade in the records, which export', async () => {
    await gatewayImage('SWG-2.5.0', '2.5.0');
    const { page, errors, context } = await signedIn();
    await page.goto(`/device/gateway/list?keyword=${GATEWAY}`);
    const row = page.getByTestId('gateway-table').locator('tr', { hasText: GATEWAY });
    await row.getByTestId('gateway-actions').click();
    // A click during the dropdown's opening animation can land on an item still growing and do nothing.
    await clickWhenOpen(page.getByRole('menuitem', { name: 'Upgrade' }));
    await page.getByTestId('upgrade-firmware').click();
    await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: 'SWG-2.5.0' }));
    await page.getByTestId('upgrade-start').click();
    await page.getByTestId('confirm-password').fill(ADMIN.password);
    await page.locator('#confirm-command').click();
    await expect
      .poll(() => page.getByTestId('upgrade-state').getAttribute('data-state'), { timeout: 40_000, interval: 300 })
      .toBe('successful');
    await page.keyboard.press('Escape');
    // The gateway reports its new version; the list shows it.
    await expect.poll(async () => row.textContent(), { timeout: 30_000, interval: 1000 }).toContain('2.5.0');

    await page.goto('/log/uphold');
    await page.getByTestId('log-result').click();
    await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: 'Successful' }));
    const log = page.getByTestId('command-log');
    await log.locator('tr', { hasText: GATEWAY }).first().waitFor();
    await log.locator('tr', { hasText: MASTER }).first().waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('log-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^upgrade-records-.*\.xlsx$/);
    const saved = await download.path();
    expect(readFileSync(saved).subarray(0, 2).toString()).toBe('PK');
    expect(errors).toEqual([]);
    await context.close();
  });
});
