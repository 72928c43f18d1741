import { deviceRealtime, devices } from '@sunward/server/db/schema';
import { createPlant } from '@sunward/server/test/api';
import { signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import { connectTestGateway } from '@sunward/server/test/test-gateway';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openMenuEntry, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Picks an option of an antd select named `label` (its accessible name), as a user does. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await clickWhenOpen(page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle(option, { exact: true }));
}

async function typeInto(page: Page, label: string, text: string) {
  const input = page.getByLabel(label, { exact: true });
  await input.fill(text);
}

describe('device protocols', () => {
  it('a platform administrator adds a new brand’s protocol in the browser; a device of that brand reports and is decoded', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    await openMenuEntry(page, 'Management', 'Device protocols');
    await page.waitForURL('**/system/protocols');
    await page.getByTestId('protocol-table').getByRole('cell', { name: 'sunspec-inverter-3p', exact: true }).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    // The shipped maps are there, searchable.
    await page.getByTestId('protocol-search').locator('input').fill('heat');
    await page.getByTestId('protocol-search').locator('input').press('Enter');
    await page.getByTestId('protocol-table').getByRole('cell', { name: 'vendor-heat-pump', exact: true }).waitFor();

    await page.getByTestId('protocol-create').click();
    await page.getByTestId('protocol-editor').waitFor();
    await page.getByLabel('Identifier', { exact: true }).fill('zenit-inv');
    await page.getByLabel('Protocol code', { exact: true }).fill('ZENIT-1');
    await page.getByLabel('Protocol name', { exact: true }).fill('ZENIT inv1');
    await page.getByLabel('Manufacturer', { exact: true }).fill('Zenit Energy');
    await page.getByLabel('English title', { exact: true }).fill('Zenit string inverter');

    // Row 1: active power, a 32-bit register (the width follows the type).
    await typeInto(page, 'Point ID, row 1', 'W');
    await typeInto(page, 'English description, row 1', 'Active power');
    await choose(page, 'Data type, row 1', 'u32');
    await expect.poll(() => page.getByLabel('Register count, row 1', { exact: true }).inputValue()).toBe('2');
    await typeInto(page, 'Unit, row 1', 'W');
    await choose(page, 'Role, row 1', 'Active power');
    // Row 2 is added after row 1's registers.
    await page.getByTestId('register-add').click();
    await expect.poll(() => page.getByLabel('Start address, row 2', { exact: true }).inputValue()).toBe('2');
    await typeInto(page, 'Point ID, row 2', 'WH');
    await typeInto(page, 'English description, row 2', 'Total yield');
    await choose(page, 'Data type, row 2', 'u32');
    await typeInto(page, 'Unit, row 2', 'Wh');
    await choose(page, 'Role, row 2', 'Energy counter');
    // Row 3 typed over row 1's second register: the overlap is named as the user types.
    await page.getByTestId('register-add').click();
    await typeInto(page, 'Point ID, row 3', 'Tmp');
    await typeInto(page, 'English description, row 3', 'Heat sink temperature');
    await typeInto(page, 'Start address, row 3', '1');
    await page.getByTestId('reg-2-problem').getByText('register Tmp at 1 overlaps register W').waitFor();
    await typeInto(page, 'Start address, row 3', '4');
    await expect.poll(() => page.getByTestId('reg-2-problem').count()).toBe(0);
    await choose(page, 'Data type, row 3', 's16');
    await typeInto(page, 'Unit, row 3', '°C');
    // Duplicate makes a fourth row at the next free address; it is not wanted and is removed again.
    await page.getByTestId('reg-2-duplicate').click();
    await expect.poll(() => page.getByLabel('Point ID, row 4', { exact: true }).inputValue()).toBe('Tmp_2');
    await expect.poll(() => page.getByLabel('Start address, row 4', { exact: true }).inputValue()).toBe('5');
    await page.getByRole('button', { name: 'Remove row 4' }).click();
    await expect.poll(() => page.getByLabel('Point ID, row 4', { exact: true }).count()).toBe(0);
    // Reordering: the temperature moves above the counter.
    await page.getByRole('button', { name: 'Move up 3' }).click();
    await expect.poll(() => page.getByLabel('Point ID, row 2', { exact: true }).inputValue()).toBe('Tmp');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.locator('#protocol-save').click();
    await page.waitForURL('**/system/protocols');
    await page.getByText('ZENIT inv1 saved as version 1').waitFor();

    // A gateway of a plant reports a device of the new brand: it is discovered and decoded with the new map.
    const token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
    const plant = await createPlant(server, token);
    const gateway = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
    try {
      await gateway.report(Date.now() - 60_000, [{ sn: 'ZENIT00001', proto: 'zenit-inv', values: { W: 3210, WH: 987_654, Tmp: 38 } }]);
    } finally {
      await gateway.close();
    }
    const [device] = await server.database.db.select().from(devices).where(eq(devices.sn, 'ZENIT00001'));
    expect(device).toMatchObject({ protocolId: 'zenit-inv', protocolVersion: 1, plantId: plant.id });
    const [realtime] = await server.database.db
      .select()
      .from(deviceRealtime)
      .where(eq(deviceRealtime.deviceId, device?.id ?? 0));
    expect(realtime).toMatchObject({ powerW: 3210, energyTotalWh: 987_654 });

    // An edit is a new version; the history shows what changed.
    await page.getByTestId('protocol-search').locator('input').fill('zenit');
    await page.getByTestId('protocol-search').locator('input').press('Enter');
    await page.getByTestId('protocol-edit-zenit-inv').click();
    await page.getByTestId('protocol-editor').getByText('Saving adds version 2').waitFor();
    await typeInto(page, 'Scale, row 2', '0.1');
    await page.getByLabel('What changed', { exact: true }).fill('Temperature in tenths of a degree');
    await page.locator('#protocol-save').click();
    await page.getByText('ZENIT inv1 saved as version 2').waitFor();
    await page.getByTestId('protocol-history-zenit-inv').click();
    await page.getByTestId('version-history').getByText('Temperature in tenths of a degree').waitFor();
    const diff = page.getByTestId('version-diff');
    await diff.getByText('Tmp').waitFor();
    await diff.getByText('Changed', { exact: true }).waitFor();
    await diff.getByText('scale').waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // Deleting is refused while the device uses the protocol, in the server's words.
    await page.getByRole('button', { name: 'Back to protocols' }).click();
    await page.getByTestId('protocol-delete-zenit-inv').click();
    await clickWhenOpen(page.locator('.ant-modal-confirm').getByRole('button', { name: 'Delete' }));
    await page.getByText('1 devices still use this protocol').waitFor();
    expect(errors).toEqual([]);
  });
});
