import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firmware } from '@sunward/server/db/schema';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

let server: TestServer;
let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'sunward-fw-e2e-'));

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

describe('firmware library', () => {
  it('refuses an upload whose stated MD5 is wrong and accepts it once corrected, as a user does it', async () => {
    const image = randomBytes(64 * 1024);
    image[0] = 0;
    const file = join(dir, 'inv_5k_v2.1.0.bin');
    writeFileSync(file, image);
    const rightMd5 = createHash('md5').update(image).digest('hex');

    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/firmware/list');
    await page.getByTestId('firmware-empty').waitFor();
    await page.screenshot({ path: join(tmpdir(), 'firmware-empty.png') });

    await page.getByTestId('firmware-upload').click();
    const form = page.getByTestId('firmware-form');
    await page.locator('#firmware-name').fill('Inverter 5K 2.1.0');
    await page.locator('#firmware-manufacturer').fill('Sunward');
    await page.locator('#firmware-product').fill('SW-5K');
    await page.locator('#firmware-sw').fill('2.1.0');
    await page.locator('#firmware-compatible').fill('>=2.0.0 <2.1.0');
    await page.locator('#firmware-changelog').fill('Faster MPPT tracking');
    await form.locator('input[type=file]').setInputFiles(file);
    // The browser computes the MD5 and pre-fills it.
    await expect.poll(() => page.locator('#firmware-md5').inputValue()).toBe(rightMd5);

    // The user types the supplier's (wrong) MD5 over it: the server refuses, beside the field.
    const wrong = `${rightMd5.slice(0, 31)}${rightMd5.endsWith('0') ? '1' : '0'}`;
    await page.locator('#firmware-md5').fill(wrong);
    await page.locator('#firmware-submit').click();
    await form.getByText('does not match the MD5 of the uploaded file').waitFor();
    await page.screenshot({ path: join(tmpdir(), 'firmware-md5-refused.png') });
    expect(await record('Inverter 5K 2.1.0')).toBeUndefined();

    await page.locator('#firmware-md5').fill(rightMd5);
    await page.locator('#firmware-submit').click();
    await form.waitFor({ state: 'detached' });
    const table = page.getByTestId('firmware-table');
    await table.getByText('Inverter 5K 2.1.0').waitFor();
    await table.getByText(rightMd5).waitFor();
    const stored = await record('Inverter 5K 2.1.0');
    expect(stored).toMatchObject({ md5: rightMd5, size: image.length, swVersion: '2.1.0', enabled: false, fileName: 'inv_5k_v2.1.0.bin' });
    await page.screenshot({ path: join(tmpdir(), 'firmware-list.png') });

    // The form checks names and versions against the library as the user types.
    await page.getByTestId('firmware-upload').click();
    await page.locator('#firmware-name').fill('Inverter 5K 2.1.0');
    await form.getByText('A firmware with this name already exists').waitFor();
    await page.locator('#firmware-sw').fill('2.1.0');
    await form.getByText('This software version already exists for this type').waitFor();
    await page.screenshot({ path: join(tmpdir(), 'firmware-form-taken.png') });
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('enables a firmware after a confirmation', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/firmware/list');
    const toggle = page.getByTestId('firmware-enabled').first();
    await toggle.waitFor();
    await toggle.click();
    await page.locator('#confirm-enable').waitFor();
    await page.screenshot({ path: join(tmpdir(), 'firmware-enable-confirm.png') });
    // Nothing changes before the confirmation.
    expect((await record('Inverter 5K 2.1.0'))?.enabled).toBe(false);
    await page.locator('#confirm-enable').click();
    await expect.poll(async () => (await record('Inverter 5K 2.1.0'))?.enabled).toBe(true);
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('uploads an image authorised for one company and shows the company in the list (issue 24)', async () => {
    const companyId = await server.createCompany('Northern Installers');
    const image = randomBytes(16 * 1024);
    image[0] = 0;
    const file = join(dir, 'gw_north_1.0.0.bin');
    writeFileSync(file, image);

    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/firmware/list');
    await page.getByTestId('firmware-upload').click();
    const form = page.getByTestId('firmware-form');
    await page.locator('#firmware-name').fill('Gateway North 1.0.0');
    await page.locator('#firmware-manufacturer').fill('Sunward');
    await page.locator('#firmware-product').fill('Hub-N');
    await page.locator('#firmware-sw').fill('N-1.0.0');
    await form.locator('input[type=file]').setInputFiles(file);
    await expect.poll(() => page.locator('#firmware-md5').inputValue()).toBe(createHash('md5').update(image).digest('hex'));
    await page.getByLabel('Authorised for').click();
    await page.getByLabel('Authorised for').fill('Northern');
    const option = page.locator('.ant-select-item-option[title="Northern Installers"]');
    await clickWhenOpen(option);
    // The choice shows in the field before the form is sent (a click during the list's opening animation picks nothing).
    const picked = form.locator('.ant-select', { has: page.locator('#firmware-company') });
    await expect.poll(() => picked.textContent()).toContain('Northern Installers');
    await page.locator('#firmware-submit').click();
    await form.waitFor({ state: 'detached' });
    const table = page.getByTestId('firmware-table');
    await table.getByText('For Northern Installers').waitFor();
    expect((await record('Gateway North 1.0.0'))?.companyId).toBe(companyId);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is not in the menu of a company administrator, and its address shows no access', async () => {
    const company = await server.createCompany('Firmware Outsiders');
    const user = await server.createUser('company_admin', 'outsider@fw.test', { companyId: company });
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, user.account, user.password);
    expect(await page.getByRole('menuitem', { name: 'Firmware' }).count()).toBe(0);
    await page.goto('/firmware/list');
    await page.getByTestId('no-access-page').waitFor();
    expect(await page.getByTestId('firmware-list').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
