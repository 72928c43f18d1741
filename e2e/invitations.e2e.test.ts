import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@sunward/server/test/harness';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Switches the console's language with the picker in the top bar, as a user does (the page reloads). */
async function pickLanguage(page: Page, name: string): Promise<void> {
  await page.getByTestId('language-picker').click();
  await Promise.all([page.waitForEvent('load'), clickWhenOpen(page.getByRole('menuitem', { name }))]);
  await page.getByTestId('user-menu').waitFor();
}

describe('agent invitations in the browser', () => {
  it('company A invites B’s administrator in German; B sees the invitation under Notifications, accepts, and A sees B as agent', async () => {
    const helios = await server.createCompany('Helios Installers');
    const sunbelt = await server.createCompany('Sunbelt O&M');
    const inviter = await server.createUser('company_admin', 'boss@helios.test', { companyId: helios });
    const invitee = await server.createUser('company_admin', 'ops@sunbelt.test', { companyId: sunbelt });

    // A, in German: invites B's administrator; nothing about B is shown, only the pending invitation.
    const a = await openPage(browser, server.url, { locale: 'de-DE' });
    await signInThroughForm(a.page, inviter.account, inviter.password);
    await pickLanguage(a.page, 'Deutsch');
    await a.page.goto('/enterprise/company');
    const agentsCard = a.page.locator('.ant-card', { hasText: 'Vertriebspartner einladen' });
    await agentsCard.waitFor();
    await a.page.locator('#agent-account').fill(invitee.account);
    await a.page.locator('#agent-add').click();
    await a.page.getByText('Einladung gesendet.', { exact: false }).waitFor();
    const pending = a.page.getByTestId('agent-invitations');
    await pending.getByText(invitee.account).waitFor();
    await pending.getByText(/Eingeladen am/).waitFor();
    // No agent row, no company name of B yet.
    expect(await agentsCard.locator('.ant-table-tbody').innerText()).not.toContain('Sunbelt');
    expect(await accessibilityProblems(a.page, '[data-testid=agents-card]')).toEqual([]);
    await a.page.screenshot({ path: join(tmpdir(), 'invitation-sent-de.png'), fullPage: true });

    // B, in English: the bell counts the message; the notification centre shows the invitation to answer.
    const b = await openPage(browser, server.url);
    await signInThroughForm(b.page, invitee.account, invitee.password);
    await expect.poll(() => b.page.getByTestId('notice-bell').innerText()).toContain('1');
    await b.page.getByTestId('notice-bell').click();
    await b.page.waitForURL('**/notice');
    const card = b.page.getByTestId('received-invitations');
    await card.getByText('Helios Installers invites your company to become their agent.').waitFor();
    const item = b.page.getByTestId('notice-item').first();
    await item.getByText('Invitation to become an agent').waitFor();
    expect(await accessibilityProblems(b.page, '[data-testid=received-invitations]')).toEqual([]);
    expect(await accessibilityProblems(b.page, '[data-testid=notice-item]')).toEqual([]);
    // The message's link leads to the invitation.
    await item.getByTestId('notice-invitation').click();
    await b.page.screenshot({ path: join(tmpdir(), 'invitation-received.png'), fullPage: true });
    await card.getByRole('button', { name: 'Accept' }).click();
    await b.page.getByText('Invitation accepted').waitFor();
    await card.waitFor({ state: 'detached' });
    await b.page.goto('/enterprise/company');
    await b.page.getByTestId('company-principals').getByText('Helios Installers').waitFor();
    expect(b.errors).toEqual([]);
    await b.context.close();

    // A sees B as agent, and the invitation is no longer pending.
    await a.page.reload();
    const row = a.page.locator('tr', { hasText: invitee.account });
    await row.getByText('Sunbelt O&M').waitFor();
    expect(await a.page.getByTestId('agent-invitations').count()).toBe(0);
    expect(await accessibilityProblems(a.page, '[data-testid=company-info-page]')).toEqual([]);
    expect(a.errors).toEqual([]);
    await a.context.close();
  }, 240_000);

  it('a declined invitation links nothing and tells the inviter nothing; the inviter can withdraw one', async () => {
    const alpha = await server.createCompany('Alpha Decline Solar');
    const beta = await server.createCompany('Beta Decline Service');
    const inviter = await server.createUser('company_admin', 'boss@alpha-decline.test', { companyId: alpha });
    const invitee = await server.createUser('company_admin', 'ops@beta-decline.test', { companyId: beta });
    const other = await server.createUser('company_admin', 'ops@gamma-decline.test', {
      companyId: await server.createCompany('Gamma Decline'),
    });

    const a = await openPage(browser, server.url);
    await signInThroughForm(a.page, inviter.account, inviter.password);
    await a.page.goto('/enterprise/company');
    for (const account of [invitee.account, other.account]) {
      await a.page.locator('#agent-account').fill(account);
      await a.page.locator('#agent-add').click();
      await a.page.getByTestId('agent-invitations').getByText(account).waitFor();
    }
    // Withdraw the second one.
    const second = a.page.getByTestId('sent-invitation').filter({ hasText: other.account });
    await second.getByRole('button', { name: 'Withdraw' }).click();
    await clickWhenOpen(a.page.locator('.ant-modal-confirm').getByRole('button', { name: 'Withdraw' }));
    await second.waitFor({ state: 'detached' });

    const c = await openPage(browser, server.url);
    await signInThroughForm(c.page, other.account, other.password);
    await c.page.goto('/notice');
    await c.page.getByTestId('notice-item').first().waitFor();
    expect(await c.page.getByTestId('received-invitations').count()).toBe(0);
    await c.context.close();

    const b = await openPage(browser, server.url);
    await signInThroughForm(b.page, invitee.account, invitee.password);
    // The agents card of B's own company information also offers the invitation.
    await b.page.goto('/enterprise/company');
    const card = b.page.getByTestId('received-invitations');
    await card.getByText('Alpha Decline Solar invites your company to become their agent.').waitFor();
    await card.getByRole('button', { name: 'Decline' }).click();
    await b.page.getByText('Invitation declined').waitFor();
    await card.waitFor({ state: 'detached' });
    expect(await b.page.getByTestId('company-principals').count()).toBe(0);
    expect(b.errors).toEqual([]);
    await b.context.close();

    await a.page.reload();
    await a.page.getByText('No agents').waitFor();
    // The decline is not told: the invitation waits until it expires, as for an account that never answers.
    await a.page.getByTestId('agent-invitations').getByText(invitee.account).waitFor();
    expect(a.errors).toEqual([]);
    await a.context.close();
  }, 240_000);
});

describe('customer invitations in the browser', () => {
  it('a company adds an existing account as customer: it is invited, accepts in Chinese, and is then listed', async () => {
    const company = await server.createCompany('Lumen Solar Service');
    const inviter = await server.createUser('company_admin', 'boss@lumen.test', { companyId: company });
    const owner = await server.createUser('owner', 'li.wei@home.test');

    const a = await openPage(browser, server.url);
    await signInThroughForm(a.page, inviter.account, inviter.password);
    await a.page.goto('/customer/list');
    await a.page.getByTestId('customer-add').click();
    await a.page.locator('#customer-account').fill(owner.account);
    // An existing account: no password is asked, it is invited.
    await a.page.getByText('This account exists: it gets an invitation').waitFor();
    expect(await a.page.locator('#customer-password').count()).toBe(0);
    await a.page.locator('#customer-name').fill('Li Wei');
    await clickWhenOpen(a.page.locator('#customer-submit'));
    await a.page.getByTestId('customer-form').waitFor({ state: 'detached' });
    const pending = a.page.getByTestId('customer-invitations');
    await pending.getByText(`Li Wei (${owner.account})`).waitFor();
    await a.page.getByTestId('customers-table').getByText('No customers yet').waitFor();
    expect(await accessibilityProblems(a.page, '[data-testid=customer-invitations]')).toEqual([]);

    const b = await openPage(browser, server.url, { locale: 'zh-CN' });
    await signInThroughForm(b.page, owner.account, owner.password);
    await b.page.goto('/notice');
    const card = b.page.getByTestId('received-invitations');
    await card.getByText('Lumen Solar Service 邀请您成为其客户。将向您展示的电站数：0。').waitFor();
    expect(await accessibilityProblems(b.page, '[data-testid=received-invitations]')).toEqual([]);
    await card
      .getByRole('button', { name: '接 受' })
      .or(card.getByRole('button', { name: '接受' }))
      .click();
    await b.page.getByText('已接受邀请').waitFor();
    await card.waitFor({ state: 'detached' });
    expect(b.errors).toEqual([]);
    await b.context.close();

    await a.page.reload();
    await a.page.getByTestId('customers-table').getByText(owner.account).waitFor();
    expect(await a.page.getByTestId('customer-invitations').count()).toBe(0);
    expect(a.errors).toEqual([]);
    await a.context.close();
  }, 240_000);
});
