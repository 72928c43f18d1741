import { createPlant } from '@sunward/server/test/api';
import { signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import { connectTestGateway } from '@sunward/server/test/test-gateway';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

// Issue 19: the hardware list: a platform administrator sees the models the platform knows (with the devices
// reporting each) and adds one; the device page shows the product (brand and model) its nameplate reports.

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const plant = await createPlant(server, token);
  const gateway = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
  await gateway.report(Date.now() - 60_000, [{ sn: 'HWPAGE0001', proto: 'sunspec-inverter-3p', values: {} }]);
  await gateway.close();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('hardware list', () => {
  it('lists the known models with their devices, adds a model, and the device page shows its product', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, `/firmware/hardware`);
    const table = page.getByTestId('hardware-table');
    // The seeded model the simulated inverter names, with the device reporting it.
    await table.getByRole('row', { name: /^Sunward SW-inverter Shipped Inverter sunspec-inverter-\S+ Any version 1 / }).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.getByTestId('hardware-add').click();
    await page.locator('#hardware-manufacturer').waitFor();
    await page.locator('#hardware-manufacturer').fill('Zenit Energy');
    await page.locator('#hardware-model').fill('ZX-10K');
    await page.locator('#hardware-firmware').fill('>=1.0 & <2');
    await clickWhenOpen(page.locator('#hardware-submit'));
    // A range the firmware checks cannot read is refused beside the field; nothing is added.
    await page.getByRole('dialog').locator('.ant-form-item-explain-error').first().waitFor();
    await page.locator('#hardware-firmware').fill('>=1.0.0 <3.0.0');
    await page.locator('#hardware-submit').click();
    await table.getByRole('row', { name: /^Zenit Energy ZX-10K Inverter — >=1\.0\.0 <3\.0\.0 0 / }).waitFor();
    // The same manufacturer and model again, in other case: refused naming the model.
    await page.getByTestId('hardware-add').click();
    await page.locator('#hardware-manufacturer').waitFor();
    await page.locator('#hardware-manufacturer').fill('zenit energy');
    await page.locator('#hardware-model').fill('zx-10k');
    await clickWhenOpen(page.locator('#hardware-submit'));
    await page.getByRole('dialog').getByText('The hardware list already has this manufacturer and model.').waitFor();
    await page.keyboard.press('Escape');

    // The device page shows the product its nameplate reports.
    await page.goto(`${server.url}/device/detail/inverter/HWPAGE0001`);
    await page.getByText('Sunward · SW-inverter').first().waitFor();
    expect(errors).toEqual([]);
  });
});
