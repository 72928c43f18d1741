import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@sunward/server/test/harness';
import { startTestOidcProvider, type TestOidcProvider } from '@sunward/server/test/oidc-test-provider';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

let idp: TestOidcProvider;
let server: TestServer;
let browser: Browser;
let user: { account: string; password: string };

beforeAll(async () => {
  // The provider's address goes into the product's settings; the product's address into the provider's client.
  idp = await startTestOidcProvider();
  [server, browser] = await Promise.all([
    startProduct({ OIDC_PROVIDERS: JSON.stringify([idp.entry('testid', 'Test ID')]) }),
    launchBrowser(),
  ]);
  idp.allowRedirects([`${server.url}/loginThird`]);
  user = await server.createUser('owner', 'ann@sunward.test');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await idp?.close();
});

/** On the provider's own pages: its login form (any login name becomes the subject), then its consent page. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.waitForURL((url) => url.origin === idp.issuer);
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('provider-password');
  await page.locator('button[type=submit]').click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

// Each test runs whole flows through two servers and a browser: generous time on a loaded machine.
describe('third-party sign-in', () => {
  it('binds a new identity with the account’s password, then signs in with the provider alone', async () => {
    const first = await openPage(browser, server.url);
    await first.page.goto('/login');
    await first.page.getByTestId('third-party-testid').click();
    await signInAtProvider(first.page, 'ann-at-idp');

    // Back on /loginThird: the identity is not bound yet, so the page asks for the Sunward account once.
    await first.page.waitForURL((url) => url.pathname === '/loginThird' && url.search === '');
    await expect.poll(() => first.page.getByTestId('third-party-identity').textContent()).toContain('ann-at-idp@idp.test');
    await first.page.screenshot({ path: join(tmpdir(), 'third-party-bind.png') });
    await first.page.locator('#bind-account').fill(user.account);
    await first.page.locator('#bind-password').fill('wrong-password');
    await first.page.getByTestId('third-party-bind-submit').click();
    await first.page.getByTestId('third-party-refusal').getByText('Wrong account or password').waitFor();
    await first.page.locator('#bind-password').fill(user.password);
    await first.page.getByTestId('third-party-bind-submit').click();
    await first.page.getByTestId('user-menu').waitFor();
    expect(first.errors).toEqual([]);
    await first.context.close();

    // A new browser: the provider alone signs the user in, straight to the console.
    const second = await openPage(browser, server.url);
    await second.page.goto('/login');
    await second.page.getByTestId('third-party-testid').click();
    await signInAtProvider(second.page, 'ann-at-idp');
    await second.page.getByTestId('user-menu').waitFor();
    expect(new URL(second.page.url()).pathname).not.toMatch(/^\/(login|loginThird)/);
    await expect.poll(() => second.page.getByTestId('user-menu').textContent()).toContain('ann');
    await second.page.screenshot({ path: join(tmpdir(), 'third-party-signed-in.png') });
    expect(second.errors).toEqual([]);
    await second.context.close();
  }, 120_000);

  it('explains in the user’s language when the sign-in is cancelled at the provider or the answer is replayed', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await page.goto('/login');
    await Promise.all([page.waitForEvent('load'), page.getByTestId('language-select').selectOption('de')]);
    await page.getByTestId('third-party-testid').click();
    await page.waitForURL((url) => url.origin === idp.issuer);
    await page.getByText('[ Cancel ]').click();
    await page.waitForURL((url) => url.pathname === '/authorizationFailed');
    await expect
      .poll(() => page.getByTestId('authorization-failed-reason').textContent())
      .toBe('Die Anmeldung wurde beim Anbieter abgebrochen, oder der Anbieter hat Sunward nicht autorisiert.');
    await page.screenshot({ path: join(tmpdir(), 'third-party-cancelled.png') });

    // A callback address opened in a browser that did not start the flow (a planted link) signs no one in.
    await page.getByRole('button', { name: 'Erneut versuchen' }).click();
    await page.getByTestId('third-party-testid').click();
    await page.waitForURL((url) => url.origin === idp.issuer);
    await page.locator('input[name=login]').fill('bob-at-idp');
    await page.locator('input[name=password]').fill('provider-password');
    await page.locator('button[type=submit]').click();
    const callback = new Promise<string>((resolve) =>
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/loginThird') resolve(request.url());
      }),
    );
    await page.getByRole('button', { name: 'Continue' }).click();
    const planted = await callback;
    // This browser started the flow: it completes (bob's identity is not bound, so the page asks to bind).
    await page.getByTestId('third-party-identity').waitFor();
    await context.close();

    const other = await openPage(browser, server.url);
    await other.page.goto(planted);
    await other.page.waitForURL((url) => url.pathname === '/authorizationFailed');
    await expect.poll(() => other.page.getByTestId('authorization-failed-reason').textContent()).toContain('expired or was already used');
    expect([...errors, ...other.errors]).toEqual([]);
    await other.context.close();
  }, 120_000);

  it('binds and unbinds a provider account from personal settings', async () => {
    const owner = await server.createUser('owner', 'cleo@sunward.test');
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, owner.account, owner.password, '/edit?tab=bound');
    const row = page.getByTestId('bound-account-testid');
    await row.getByText('Not bound').waitFor();
    await page.getByTestId('third-party-bind-testid').click();
    await signInAtProvider(page, 'cleo-at-idp');

    // Back on the bound-accounts tab, bound.
    await page.waitForURL((url) => url.pathname === '/edit');
    await row.getByText('cleo-at-idp@idp.test').waitFor();
    await row.getByText('Bound', { exact: true }).waitFor();
    await page.screenshot({ path: join(tmpdir(), 'third-party-settings-bound.png') });

    await page.getByTestId('third-party-unbind-testid').click();
    await page.locator('.ant-modal-confirm-btns .ant-btn-dangerous').click();
    await row.getByText('Not bound').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
