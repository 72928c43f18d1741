import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

async function tables() {
  return import('@sunward/server/db/schema');
}

describe('top bar', () => {
  it('caps the unread badge at 99+ and links it to the notification page', async () => {
    const user = await server.createUser('owner');
    const { messages } = await tables();
    await server.database.db
      .insert(messages)
      .values(Array.from({ length: 120 }, (_, i) => ({ userId: user.id, type: 1, title: `alarm ${i}`, content: 'fault' })));
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, user.account, user.password);
    await page.locator('[data-testid=notice-bell] .ant-badge-count', { hasText: '99+' }).waitFor();
    await page.getByTestId('notice-bell').click();
    await page.waitForURL('**/notice');
    await context.close();
  });

  it('hides personal settings from a read-only user', async () => {
    const user = await server.createUser('guest');
    const { users } = await tables();
    await server.database.db.update(users).set({ readOnly: true }).where(eq(users.id, user.id));
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, user.account, user.password);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    await expect(page.getByRole('menuitem', { name: 'Personal settings' }).count()).resolves.toBe(0);
    await context.close();
  });
});

describe('server not responding', () => {
  it('asks to reload when a call answers 5xx, and reloads on confirm', async () => {
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    await page.route('**/api/v1/message/count', (route) => route.fulfill({ status: 502, body: 'Bad gateway' }));
    await page.reload();
    const dialog = page.getByRole('dialog');
    await page.locator('.ant-modal-confirm-title', { hasText: 'The server is not responding' }).waitFor();
    // One confirm, however many calls failed.
    await expect(dialog.count()).resolves.toBe(1);
    await page.unroute('**/api/v1/message/count');
    await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: 'Reload' }).click()]);
    await page.getByTestId('user-menu').waitFor();
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    await context.close();
  });
});

describe('menu behaviour', () => {
  it('opens the API documentation entry in a new tab, and the page works under the CSP', async () => {
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      clickWhenOpen(page.getByRole('menuitem', { name: /API documentation/ })),
    ]);
    await popup.waitForLoadState();
    expect(new URL(popup.url()).pathname).toMatch(/^\/api\/docs/);
    // The reference opens on its groups; the sign-in group unfolds on a click and lists the token endpoint.
    await popup.locator('.opblock-tag', { hasText: 'Authentication and account' }).first().click();
    await popup.getByText('/oauth/token').first().waitFor();
    await context.close();
  });

  it('keeps a cached page mounted while another page shows, and shows the same instance on return', async () => {
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    await page.locator('[data-cached-page="/plants"]').evaluate((node) => {
      (node as HTMLElement & { marker?: string }).marker = 'kept';
    });
    await openMenuEntry(page, 'Firmware', 'Firmware list');
    await page.waitForURL('**/firmware/list');
    await page.locator('[data-cached-page="/plants"]').waitFor({ state: 'hidden' });
    await page.getByRole('menuitem', { name: 'Plants' }).click();
    await page.waitForURL('**/plants');
    const marker = await page
      .locator('[data-cached-page="/plants"]')
      .evaluate((node) => (node as HTMLElement & { marker?: string }).marker);
    expect(marker).toBe('kept');
    await context.close();
  });

  it('shows the navigation overlay and removes it 200 ms after the page renders', async () => {
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    await page.getByRole('menuitem', { name: 'Devices' }).click();
    // The overlay can come and go between two polls of a locator, so a MutationObserver records that it showed.
    await page.evaluate(() => {
      const seen = window as unknown as { sawNavigationProgress?: boolean };
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="navigation-progress"]')) seen.sawNavigationProgress = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await clickWhenOpen(page.getByRole('menuitem', { name: 'Events' }));
    await page.waitForFunction(() => document.title === 'Events · Sunward');
    await page.getByTestId('loading-overlay').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (window as unknown as { sawNavigationProgress?: boolean }).sawNavigationProgress)).toBe(true);
    await context.close();
  });
});
