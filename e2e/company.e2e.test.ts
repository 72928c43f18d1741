import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@sunward/server/test/harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

/** expect.poll waits 1 s by default: a loaded CI machine repaints the brand later than that. */
const SLOW = { timeout: 30_000 };

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
    await signInThroughForm(page, admin.account, admin.password, '/enterprise/roles');
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
    await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: 'Plant viewers' }));
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
    // Plants with the large-screen display of them (display links), and the download centre and API documentation
    // every signed-in user has; no devices, company, customers or logs.
    expect(entries.filter((text) => !/API/i.test(text))).toEqual(['Plants', 'Display links', 'Download centre']);
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
    await signInThroughForm(page, admin.account, admin.password, '/enterprise/company');
    await page.getByTestId('company-info-page').waitFor();
    // A colour that reads at 4.5:1 under white text is used as it is (a paler one is darkened: theme/tokens.ts).
    await page.locator('#company-theme-input').fill('#0958D9');
    await page.locator('#company-theme-apply').click();
    // The console's primary colour changes at once, without reloading.
    await expect
      .poll(() => page.locator('#company-save').evaluate((el) => getComputedStyle(el).backgroundColor), SLOW)
      .toBe('rgb(9, 88, 217)');
    await page.locator('input[type=file]').first().setInputFiles(logoFile);
    await page.getByTestId('company-logo-preview').waitFor();
    const logoUrl = await page.getByTestId('company-logo-preview').getAttribute('src');
    expect(logoUrl).toMatch(/^\/api\/v1\/files\/company\/[a-f0-9]{32}\.png$/);
    await expect.poll(() => page.locator('.sw-logo img').getAttribute('src'), SLOW).toBe(logoUrl);
    await page.screenshot({ path: join(tmpdir(), 'company-branding.png') });
    expect(errors).toEqual([]);
    await context.close();

    const member = await openPage(browser, server.url);
    await signInThroughForm(member.page, 'vera@helios.test', 'Viewer2024x');
    await expect.poll(() => member.page.locator('.sw-logo img').getAttribute('src'), SLOW).toBe(logoUrl);
    expect(await member.page.locator('.sw-logo img').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    const selected = member.page.locator('.ant-menu-item-selected').first();
    await expect.poll(() => selected.evaluate((el) => getComputedStyle(el).color), SLOW).toBe('rgb(9, 88, 217)');
    await member.page.screenshot({ path: join(tmpdir(), 'company-member-branding.png') });
    expect(member.errors).toEqual([]);
    await member.context.close();
  }, 180_000);
});

describe('customers and agents', () => {
  it('labels customers with a primary and a secondary type, adds a customer with a plant-less account, and deletes it', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, admin.account, admin.password, '/customer/type');
    const types = page.getByTestId('types-table');
    await types.getByText('No customer types yet').waitFor();
    await page.getByTestId('type-add').click();
    await page.locator('#type-name').fill('Residential');
    await page.locator('#type-remark').fill('Homes with rooftop systems');
    await clickWhenOpen(page.locator('#type-submit'));
    await types.getByText('Residential', { exact: true }).waitFor();
    await types.locator('tr', { hasText: 'Residential' }).getByRole('button', { name: 'Add secondary label' }).click();
    await page.locator('#type-name').fill('Rooftop');
    await clickWhenOpen(page.locator('#type-submit'));
    await types.getByText('Rooftop', { exact: true }).waitFor();
    await page.screenshot({ path: join(tmpdir(), 'customer-types.png') });

    // A primary label with a secondary under it cannot go: the refusal says why (205).
    await types.locator('tr', { hasText: 'Residential' }).getByRole('button', { name: 'Remove' }).click();
    await clickWhenOpen(page.locator('.ant-modal-confirm').getByRole('button', { name: 'Remove' }));
    await page.getByText('This type has subtypes and cannot be deleted.').waitFor();
    await types.getByText('Residential', { exact: true }).waitFor();

    await page.goto('/customer/list');
    const table = page.getByTestId('customers-table');
    await table.getByText('No customers yet').waitFor();
    await page.getByTestId('customer-add').click();
    await page.locator('#customer-account').fill('homeowner@example.com');
    await page.locator('#customer-password').fill('SunnyRoof24');
    await page.locator('#customer-name').fill('Maria Schneider');
    await page.locator('#customer-type').click();
    await clickWhenOpen(page.locator('.ant-select-tree-title', { hasText: 'Rooftop' }));
    await clickWhenOpen(page.locator('#customer-submit'));
    await page.getByTestId('customer-form').waitFor({ state: 'detached' });
    const row = table.locator('tr', { hasText: 'homeowner@example.com' });
    await row.getByText('Maria Schneider').waitFor();
    await row.getByText('Rooftop', { exact: true }).waitFor();
    await page.screenshot({ path: join(tmpdir(), 'customers.png') });

    // The same account again is refused beside the account field.
    await page.getByTestId('customer-add').click();
    await page.locator('#customer-account').fill('homeowner@example.com');
    await page.locator('#customer-password').fill('SunnyRoof24');
    await page.locator('#customer-name').fill('Maria again');
    await clickWhenOpen(page.locator('#customer-submit'));
    await page.getByTestId('customer-form').locator('.ant-form-item-explain-error').first().waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('customer-form').waitFor({ state: 'detached' });

    // The customer signs in with the new account.
    const customer = await openPage(browser, server.url);
    await signInThroughForm(customer.page, 'homeowner@example.com', 'SunnyRoof24');
    expect(customer.errors).toEqual([]);
    await customer.context.close();

    await row.getByRole('button', { name: 'Remove' }).click();
    await clickWhenOpen(page.locator('.ant-modal-confirm').getByRole('button', { name: 'Remove' }));
    await table.getByText('No customers yet').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('invites another company’s administrator as agent, refusing itself and a second invitation; the agent then sees whom it serves', async () => {
    const other = await server.createCompany('Sunbelt O&M');
    const agent = await server.createUser('company_admin', 'ops@sunbelt.test', { companyId: other });
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, admin.account, admin.password, '/enterprise/company');
    await page.getByText('No agents').waitFor();
    await page.locator('#agent-account').fill(admin.account);
    await page.locator('#agent-add').click();
    await page.getByTestId('agent-refusal').getByText('You cannot make yourself an agent.').waitFor();
    await page.locator('#agent-account').fill(agent.account);
    expect(await page.getByTestId('agent-refusal').count()).toBe(0);
    await page.locator('#agent-add').click();
    // An invitation, not an agent: nothing about the account is shown until it accepts.
    await page.getByTestId('agent-invitations').getByText(agent.account).waitFor();
    // Twice is refused (210): the refusal stays under the field.
    await page.locator('#agent-account').fill(agent.account);
    await page.locator('#agent-add').click();
    await page.getByTestId('agent-refusal').getByText('An invitation to this account is already open.').waitFor();
    await page.screenshot({ path: join(tmpdir(), 'company-agents.png'), fullPage: true });

    const agentPage = await openPage(browser, server.url);
    await signInThroughForm(agentPage.page, agent.account, agent.password);
    await agentPage.page.goto('/enterprise/company');
    await agentPage.page.getByTestId('received-invitations').getByRole('button', { name: 'Accept' }).click();
    await agentPage.page.getByTestId('company-principals').getByText('Helios Installers').waitFor();
    expect(agentPage.errors).toEqual([]);
    await agentPage.context.close();

    await page.reload();
    const agentRow = page.locator('tr', { hasText: agent.account });
    await agentRow.getByText('Sunbelt O&M').waitFor();
    await agentRow.getByRole('button', { name: 'Remove' }).click();
    await clickWhenOpen(page.locator('.ant-modal-confirm').getByRole('button', { name: 'Remove' }));
    await page.getByText('No agents').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('hands the company to a member after the password check; the new administrator then holds the company', async () => {
    const company = await server.createCompany('Handover Solar');
    const founder = await server.createUser('company_admin', 'founder@handover.test', { companyId: company });
    const successor = await server.createUser('company_staff', 'successor@handover.test', { companyId: company });
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, founder.account, founder.password, '/enterprise/company');
    await page.getByTestId('admin-transfer').click();
    const dialog = page.getByTestId('admin-transfer-modal');
    await dialog.locator('.ant-select').click();
    await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: successor.account }));
    await dialog.getByTestId('confirm-password').fill('not-my-password');
    await dialog.locator('#confirm-command').click();
    await dialog.locator('.ant-form-item-explain-error').waitFor();
    await dialog.getByTestId('confirm-password').fill(founder.password);
    await dialog.locator('#confirm-command').click();
    await page.waitForURL((url) => url.pathname !== '/enterprise/company');
    // The founder is now a staff member: company information is no longer theirs to open.
    await page.goto('/enterprise/company');
    await page.getByTestId('no-access-page').waitFor();
    expect(errors).toEqual([]);
    await context.close();

    const next = await openPage(browser, server.url);
    await signInThroughForm(next.page, successor.account, successor.password);
    await next.page.goto('/enterprise/company');
    await next.page.getByTestId('admin-transfer').waitFor();
    expect(next.errors).toEqual([]);
    await next.context.close();
  }, 180_000);
});
