import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batteryProducts, batteryTypes, firmware } from '@sunward/server/db/schema';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickWhenOpen, launchBrowser, openMenuEntry, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

let server: TestServer;
let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'sunward-battery-fw-e2e-'));
const shots = (name: string) => join(tmpdir(), `battery-firmware-${name}.png`);
// The longest flow of the suite (three forms and an upload): room for a busy machine.
const FLOW_TIMEOUT = 240_000;

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function record(name: string) {
  const [row] = await server.database.db.select().from(firmware).where(eq(firmware.name, name));
  return row;
}

/** Picks an option of the antd Select whose input has `id`. */
async function choose(page: Page, id: string, option: string) {
  await page.locator(`#${id}`).click();
  await clickWhenOpen(page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first());
}

describe('battery firmware library', () => {
  it('shows an empty public release log without signing in', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await page.goto('/firmwareLogging');
    await page.getByTestId('firmware-release-empty').waitFor();
    expect(await page.getByTestId('user-menu').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    'an administrator adds types, a product and an image with its MD5, then releases it',
    async () => {
      const image = randomBytes(32 * 1024);
      image[0] = 0;
      const file = join(dir, 'bms_p10_v1.4.0.bin');
      writeFileSync(file, image);
      const rightMd5 = createHash('md5').update(image).digest('hex');

      const { page, errors, context } = await openPage(browser, server.url);
      page.setDefaultTimeout(45_000);
      await signInThroughForm(page, ADMIN.account, ADMIN.password);
      // The menu entry sits under Firmware.
      await openMenuEntry(page, /Firmware$/, 'Battery firmware');
      await page.waitForURL('**/firmware/batt');
      await page.getByTestId('battery-types-empty').waitFor();
      await page.getByTestId('battery-products-empty').waitFor();
      await page.screenshot({ path: shots('empty'), fullPage: true });

      // A primary type, then a secondary type under it.
      await page.getByTestId('battery-type-add-primary').click();
      await page.locator('#battery-type-name').fill('LFP');
      await page.locator('#battery-type-submit').click();
      const tree = page.getByTestId('battery-type-tree');
      await tree.getByText('LFP', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Add a secondary type under LFP' }).click();
      await page.locator('#battery-type-name').fill('Rack 48V');
      await page.locator('#battery-type-submit').click();
      await tree.getByText('Rack 48V', { exact: true }).waitFor();
      const [secondary] = await server.database.db.select().from(batteryTypes).where(eq(batteryTypes.name, 'Rack 48V'));
      expect(secondary?.parentId).not.toBeNull();

      // The form checks names among siblings as the user types.
      await page.getByTestId('battery-type-add-primary').click();
      await page.locator('#battery-type-name').fill('LFP');
      await page.getByTestId('battery-type-form').getByText('A type with this name already exists at this level').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('battery-type-form').waitFor({ state: 'detached' });

      // A product of the secondary type.
      await page.getByTestId('battery-product-add').click();
      await page.locator('#battery-product-name').fill('Pack 10');
      await choose(page, 'battery-product-type', 'Rack 48V');
      await page.locator('#battery-product-manufacturer').fill('Voltaic');
      await page.locator('#battery-product-model').fill('P10');
      await page.locator('#battery-product-submit').click();
      await page.getByTestId('battery-product-form').waitFor({ state: 'detached' });
      await page.getByTestId('battery-products-table').getByText('Pack 10').waitFor();
      const [product] = await server.database.db.select().from(batteryProducts).where(eq(batteryProducts.name, 'Pack 10'));
      expect(product).toMatchObject({ manufacturer: 'Voltaic', model: 'P10', batteryTypeId: secondary?.id });

      // An image for the product; the browser computes the MD5.
      await page.getByTestId('battery-firmware-upload').click();
      const form = page.getByTestId('battery-firmware-form');
      await page.locator('#battery-firmware-name').fill('Pack 10 BMS 1.4.0');
      await choose(page, 'battery-firmware-type', 'Rack 48V');
      await choose(page, 'battery-firmware-product', 'Pack 10 (P10)');
      await page.locator('#battery-firmware-sw').fill('1.4.0');
      await page.locator('#battery-firmware-changelog').fill('Better cell balancing at low temperature');
      await form.locator('input[type=file]').setInputFiles(file);
      await expect.poll(() => page.locator('#battery-firmware-md5').inputValue()).toBe(rightMd5);
      await page.screenshot({ path: shots('upload-form') });
      await page.locator('#battery-firmware-submit').click();
      await form.waitFor({ state: 'detached' });
      const table = page.getByTestId('battery-firmware-table');
      await table.getByText('Pack 10 BMS 1.4.0').waitFor();
      await table.getByText(rightMd5).waitFor();
      expect(await record('Pack 10 BMS 1.4.0')).toMatchObject({
        type: 'battery',
        md5: rightMd5,
        size: image.length,
        product: 'Pack 10',
        manufacturer: 'Voltaic',
        batteryTypeId: secondary?.id,
        batteryProductId: product?.id,
        enabled: false,
      });
      // The tree counts what uses each type.
      await tree.getByText('1 · 1').waitFor();
      await page.screenshot({ path: shots('list'), fullPage: true });

      // Enabled after a confirmation, it is released.
      await page.getByTestId('battery-firmware-enabled').click();
      await clickWhenOpen(page.locator('#confirm-enable'));
      await expect.poll(async () => (await record('Pack 10 BMS 1.4.0'))?.enabled).toBe(true);

      // A type in use cannot be deleted: the refusal says why.
      await page.getByRole('button', { name: 'Delete Rack 48V' }).click();
      await clickWhenOpen(page.locator('#confirm-delete-type'));
      await page.getByText('This battery type is used by battery products or firmware and cannot be deleted.').waitFor();
      expect(errors).toEqual([]);
      await context.close();
    },
    FLOW_TIMEOUT,
  );

  it('shows the released version in the public release log without signing in', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    page.setDefaultTimeout(45_000);
    await page.goto('/firmwareLogging');
    const group = page.getByTestId('firmware-release-group');
    await group.getByText('Pack 10').first().waitFor();
    await group.getByText('Version 1.4.0').waitFor();
    await group.getByText('Better cell balancing at low temperature').waitFor();
    expect(await page.content()).not.toContain(((await record('Pack 10 BMS 1.4.0'))?.md5 ?? 'x').slice(0, 32));
    expect(await page.getByTestId('user-menu').count()).toBe(0);
    await page.screenshot({ path: shots('release-log'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });
});
