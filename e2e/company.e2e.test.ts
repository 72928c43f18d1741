import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@sunward/server/test/harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

let server: TestServer;
let browser: Browser;
let admin: { account: string; password: string };
const dir = mkdtempSync(join(tmpdir(), 'sunward-company-e2e-'));
// A real 1x1 PNG: the browser must be able to show it in the menu.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const company = await server.createCompany('Helios Installers');
  admin = await server.createUser('company_admin', 'boss@helios.test', { companyId: company });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('company administration', () => {
  it('creates a role with only plant viewing, adds a member with it, and the member sees exactly that menu', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, admin.account, admin.password);
    await page.goto('/enterprise/roles');
    await page.getByTestId('role-add').click();
    const form = page.getByTestId('role-form');
    await page.locator('#role-name').fill('Plant viewers');
    await page.locator('#role-remark').fill('Looks at plants only');
    // The permission tree: tick "Plants" (the menu and its buttons), nothing else.
    await form.getByTestId('permission-tree').getByText('Plants', { exact: true }).waitFor();
    await page.screenshot({ path: join(tmpdir(), 'company-role-form.png') });
    await form
      .getByTestId('permission-tree')
      .locator('.ant-tree-treenode', { hasText: /^Plants$/ })
      .first()
      .locator('.ant-tree-checkbox')
      .click();
    await page.locator('#role-submit').click();
    await form.waitFor({ state: 'detached' });
    await page.getByTestId('roles-table').getByText('Plant viewers').waitFor();
    await page.screenshot({ path: join(tmpdir(), 'company-roles.png') });

    await page.goto('/enterprise/user');
    await page.getByTestId('staff-add').click();
    await page.locator('#staff-account').fill('vera@helios.test');
    await page.locator('#staff-password').fill('Viewer2024x');
    await page.locator('#staff-nickname').fill('Vera');
    await page.locator('#staff-role').click();
    await page.locator('.ant-select-item-option', { hasText: 'Plant viewers' }).click();
    await page.locator('#staff-submit').click();
    await page.getByTestId('staff-form').waitFor({ state: 'detached' });
    await page.getByTestId('staff-table').getByText('vera@helios.test').waitFor();
    await page.screenshot({ path: join(tmpdir(), 'company-staff.png') });
    expect(errors).toEqual([]);
    await context.close();

    const member = await openPage(browser, server.url);
    await signInThroughForm(member.page, 'vera@helios.test', 'Viewer2024x');
    const menu = member.page.getByRole('navigation', { name: 'main' });
    await menu.getByRole('menuitem', { name: 'Plants' }).waitFor();
    const entries = (await menu.getByRole('menuitem').allInnerTexts()).map((text) => text.trim()).filter((text) => text !== '');
    // Plants, and the API documentation every signed-in user has; no devices, company, customers or logs.
    expect(entries.filter((text) => !/API/i.test(text))).toEqual(['Plants']);
    await member.page.screenshot({ path: join(tmpdir(), 'company-member-menu.png') });
    await member.page.goto('/enterprise/roles');
    await member.page.getByTestId('no-access-page').waitFor();
    expect(member.errors).toEqual([]);
    await member.context.close();
  }, 180_000);

  it('applies a new theme colour and logo to the console of every member', async () => {
    const logoFile = join(dir, 'helios-logo.png');
    writeFileSync(logoFile, PNG);
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, admin.account, admin.password);
    await page.goto('/enterprise/company');
    await page.getByTestId('company-info-page').waitFor();
    await page.locator('#company-theme-input').fill('#1677FF');
    await page.locator('#company-theme-apply').click();
    // The console's primary colour changes at once, without reloading.
    await expect.poll(() => page.locator('#company-save').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(22, 119, 255)');
    await page.locator('input[type=file]').first().setInputFiles(logoFile);
    await page.getByTestId('company-logo-preview').waitFor();
    const logoUrl = await page.getByTestId('company-logo-preview').getAttribute('src');
    expect(logoUrl).toMatch(/^\/api\/v1\/files\/company\/[a-f0-9]{32}\.png$/);
    await expect.poll(() => page.locator('.sw-logo img').getAttribute('src')).toBe(logoUrl);
    await page.screenshot({ path: join(tmpdir(), 'company-branding.png') });
    expect(errors).toEqual([]);
    await context.close();

    const member = await openPage(browser, server.url);
    await signInThroughForm(member.page, 'vera@helios.test', 'Viewer2024x');
    await expect.poll(() => member.page.locator('.sw-logo img').getAttribute('src')).toBe(logoUrl);
    expect(await member.page.locator('.sw-logo img').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    const selected = member.page.locator('.ant-menu-item-selected').first();
    await expect.poll(() => selected.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(22, 119, 255)');
    await member.page.screenshot({ path: join(tmpdir(), 'company-member-branding.png') });
    expect(member.errors).toEqual([]);
    await member.context.close();
  }, 180_000);
});
