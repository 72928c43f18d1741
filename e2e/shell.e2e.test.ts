import { LANGUAGE_NAMES, LANGUAGE_TAGS, LANGUAGES } from '@sunward/contracts/languages';
import type { TestServer } from '@sunward/server/test/harness';
import { ADMIN } from '@sunward/server/test/harness';
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

// A UI key that reached the screen untranslated looks like "shell.signOut" or "route.plants".
const RAW_KEY = /\b(app|route|login|shell|error|placeholder|public|account|validation)\.[a-z][A-Za-z]+\b/;

describe('sign-in', () => {
  it('signs in with the administrator login and shows the shell with menu, top bar and footer', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await page.goto('/plants');
    await page.waitForURL('**/login');
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    // The sign-in lands on the page asked for; "/" may show for a moment before the redirect.
    await page.waitForURL('**/plants');
    await page.waitForFunction(() => document.title === 'Plants · Sunward');
    await page.getByRole('menuitem', { name: 'Plants' }).waitFor();
    await page.getByTestId('user-menu').filter({ hasText: 'Administrator' }).waitFor();
    // The version arrives with /anonymous/about: wait for it rather than read once.
    await page
      .getByTestId('footer')
      .filter({ hasText: /\d+\.\d+\.\d+/ })
      .waitFor();
    expect(await page.getByTestId('footer').textContent()).toContain(String(new Date().getFullYear()));
    // The bell links to /notice and shows no badge at 0 unread.
    await expect(page.getByTestId('notice-bell').getAttribute('href')).resolves.toBe('/notice');
    await expect(page.locator('[data-testid=notice-bell] .ant-badge-count').count()).resolves.toBe(0);
    // A signed-in user opening /login goes to /, which leads to /plants.
    await page.goto('/login');
    await page.waitForURL('**/plants');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a link opened signed out asks to sign in, then opens the page it points to, query and all', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await page.goto('/device/event?quick=last7');
    await page.waitForURL('**/login');
    await page.locator('input#account').fill(ADMIN.account);
    await page.locator('input#password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/device/event');
    expect(new URL(page.url()).searchParams.get('quick')).toBe('last7');
    await page.getByTestId('user-menu').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a wrong password beside the field and stays on the sign-in page', async () => {
    const { page, context } = await openPage(browser, server.url);
    await page.goto('/login');
    await page.locator('input#account').fill(ADMIN.account);
    await page.locator('input#password').fill('not-the-password');
    await page.getByTestId('login-submit').click();
    await page.getByText('Wrong account or password.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('rejects a password with a space before calling the server', async () => {
    const { page, context } = await openPage(browser, server.url);
    let tokenCalls = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/oauth/token')) tokenCalls++;
    });
    await page.goto('/login');
    await page.locator('input#account').fill(ADMIN.account);
    await page.locator('input#password').fill('has space');
    await page.getByTestId('login-submit').click();
    await page.getByText('Spaces are not allowed in a password').waitFor();
    expect(tokenCalls).toBe(0);
    await context.close();
  });
});

describe('menu from permissions', () => {
  it('shows a guest only the entries its permissions allow, and the no-access page elsewhere', async () => {
    const guest = await server.createUser('guest');
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, guest.account, guest.password);
    const menu = page.locator('nav[aria-label=main]');
    await menu.getByRole('menuitem', { name: 'Plants' }).waitFor();
    const text = await menu.textContent();
    expect(text).toContain('Devices');
    expect(text).not.toContain('Company');
    expect(text).not.toContain('Firmware');
    await page.goto('/enterprise/user');
    await page.getByTestId('no-access-page').waitFor();
    await page.getByRole('button', { name: 'Back to home' }).click();
    await page.waitForURL('**/plants');
    await context.close();
  });

  it('shows the platform administrator every area, opens groups, and collapses the menu to icons', async () => {
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    const menu = page.locator('nav[aria-label=main]');
    for (const entry of ['Plants', 'Devices', 'Firmware', 'Company', 'Logs']) {
      await menu.getByRole('menuitem', { name: entry }).waitFor();
    }
    // Members, roles and customers belong to a company: the platform administrator, in none, is not offered them.
    expect(await menu.textContent()).not.toContain('Customers');
    expect(await menu.textContent()).not.toContain('Members');
    await openMenuEntry(menu, 'Devices', 'Inverters');
    await page.waitForURL('**/device/inverter');
    await page.locator('[data-testid=page-title]:visible', { hasText: 'Inverters' }).waitFor();
    await page.locator('[data-cached-page="/plants"]').waitFor({ state: 'hidden' });
    // /device redirects to the gateway list.
    await page.goto('/device');
    await page.waitForURL('**/device/gateway/list');
    await page.getByTestId('menu-toggle').click();
    await page.locator('.sw-logo-small').waitFor();
    await expect(page.locator('.sw-logo-text').count()).resolves.toBe(0);
    await context.close();
  });
});

describe('404 and no-access pages', () => {
  it('shows the 404 page for an unknown path, signed in (with a way home) and signed out', async () => {
    const { page, context } = await openPage(browser, server.url);
    await page.goto('/no-such-page');
    await page.getByTestId('not-found-page').waitFor();
    await page.getByRole('button', { name: 'Go to sign-in' }).waitFor();
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    await page.goto('/plants/no/such/page');
    await page.getByTestId('not-found-page').waitFor();
    await page.getByRole('button', { name: 'Back to home' }).click();
    await page.waitForURL('**/plants');
    await context.close();
  });

  it('serves the public /403 page without sign-in', async () => {
    const { page, context } = await openPage(browser, server.url);
    await page.goto('/403');
    await page.getByTestId('no-access-page').waitFor();
    await page.getByRole('button', { name: 'Go to sign-in' }).click();
    await page.waitForURL('**/login');
    await context.close();
  });
});

describe('languages', () => {
  it('switches to each of the ten languages with no missing strings, antd following', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    const englishMenu = await page.locator('nav[aria-label=main]').textContent();
    // English last: picking the language already shown does not reload.
    for (const language of [...LANGUAGES.filter((l) => l !== 'en'), 'en' as const]) {
      await page.getByTestId('language-picker').click();
      await Promise.all([page.waitForEvent('load'), clickWhenOpen(page.getByRole('menuitem', { name: LANGUAGE_NAMES[language] }))]);
      await page.getByTestId('user-menu').waitFor();
      await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe(LANGUAGE_TAGS[language]);
      await expect(page.evaluate(() => localStorage.getItem('lang'))).resolves.toBe(language);
      await expect(page.getByTestId('language-picker').textContent()).resolves.toContain(LANGUAGE_NAMES[language]);
      const body = (await page.locator('body').innerText()) ?? '';
      expect(body, `raw key in ${language}`).not.toMatch(RAW_KEY);
      const menu = await page.locator('nav[aria-label=main]').textContent();
      if (language !== 'en') expect(menu, `menu in ${language}`).not.toBe(englishMenu);
      // The permission names come from the server in the same language.
      await page.goto('/edit');
      await page.locator('[data-testid=page-title]:visible').waitFor();
      expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);
      await page.goto('/plants');
    }
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000); // Ten languages, each a page load: slow when two browser files share the machine.

  it('starts in Chinese for a Chinese browser and in English otherwise, on the sign-in page', async () => {
    const zh = await openPage(browser, server.url, { locale: 'zh-CN' });
    await zh.page.goto('/login');
    await zh.page.getByTestId('login-submit').waitFor();
    await expect(zh.page.evaluate(() => document.documentElement.lang)).resolves.toBe('zh-CN');
    await zh.context.close();
    const de = await openPage(browser, server.url, { locale: 'de-DE' });
    await de.page.goto('/login');
    await expect(de.page.getByTestId('login-submit').textContent()).resolves.toContain('Sign in');
    await de.context.close();
  });
});

describe('token refresh', () => {
  it('refreshes once while two calls are in flight, then retries both with the new token', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    // Off the console first: a call the signed-in page made after the edit below would meet the stale token and
    // refresh, and a reload during that refresh left a retired refresh token in storage (the server then ends the
    // session as a reuse; two CI runs failed so). A JSON answer of the same origin runs no console code.
    await page.goto('/api/health/live');
    // Make the stored access token stale, as if it had expired, keeping the refresh token; without a
    // stored userInfo the next load asks for the user and the permissions at the same time.
    await page.evaluate(() => {
      localStorage.removeItem('userInfo');
      const session = JSON.parse(localStorage.getItem('user') ?? '{}') as Record<string, string>;
      localStorage.setItem('user', JSON.stringify({ ...session, access_token: 'expired-token-expired-token-expired-00' }));
    });
    const refreshes: string[] = [];
    const unauthorized: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/oauth/token') && r.method() === 'POST') refreshes.push(r.postData() ?? '');
    });
    page.on('response', (r) => {
      if (r.status() === 401) unauthorized.push(new URL(r.url()).pathname);
    });
    await page.goto('/plants');
    await page.getByTestId('user-menu').waitFor();
    await page.locator('nav[aria-label=main]').getByRole('menuitem', { name: 'Plants' }).waitFor();
    // /api/v1/user and /api/v1/permission (and the badge count) all met the stale token at once.
    expect(new Set(unauthorized).size).toBeGreaterThanOrEqual(2);
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]).toContain('grant_type=refresh_token');
    expect(new URL(page.url()).pathname).toBe('/plants');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}') as { access_token: string });
    expect(stored.access_token).not.toContain('expired');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends the user to sign-in when the refresh fails, clearing stored user data', async () => {
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    await page.evaluate(() => {
      localStorage.setItem(
        'user',
        JSON.stringify({
          access_token: 'stale-stale-stale-stale-stale-stale-01',
          refresh_token: 'revoked-revoked-revoked-revoked-revoked-01',
          expires_in: 900,
          token_type: 'bearer',
        }),
      );
    });
    await page.reload();
    await page.waitForURL('**/login');
    await expect(page.evaluate(() => [localStorage.getItem('user'), localStorage.getItem('userInfo')])).resolves.toEqual([null, null]);
    await context.close();
  });
});

describe('sign-out', () => {
  it('signs out from the user menu, clears stored data and revokes the session on the server', async () => {
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? '{}') as { access_token: string }).access_token);
    await page.getByTestId('user-menu').click();
    await clickWhenOpen(page.getByRole('menuitem', { name: 'Sign out' }));
    await page.waitForURL('**/login');
    await expect(page.evaluate(() => ['user', 'userInfo', 'readOnly', 'styleType'].map((k) => localStorage.getItem(k)))).resolves.toEqual([
      null,
      null,
      null,
      null,
    ]);
    const after = await fetch(`${server.url}/api/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    // A protected page now sends the user to sign-in.
    await page.goto('/plants');
    await page.waitForURL('**/login');
    await context.close();
  });

  it('opens personal settings from the user menu', async () => {
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    await page.getByTestId('user-menu').click();
    await clickWhenOpen(page.getByRole('menuitem', { name: 'Personal settings' }));
    await page.waitForURL('**/edit');
    // Personal settings open on the profile; the account and its role are under "Account info".
    await page.getByRole('tab', { name: 'Account info' }).click();
    const info = page.getByTestId('account-info');
    await info.getByText(ADMIN.account).waitFor();
    await info.getByText('Platform administrator').waitFor();
    await context.close();
  });
});
