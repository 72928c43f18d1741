import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { users } from '@sunward/server/db/schema';
import type { TestServer } from '@sunward/server/test/harness';
import { type SmtpInbox, startSmtpInbox } from '@sunward/server/test/smtp-inbox';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

let server: TestServer;
let browser: Browser;
let inbox: SmtpInbox;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  [server, browser] = await Promise.all([startProduct({ SMTP_URL: inbox.url }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await inbox?.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(tmpdir(), `accounts-${name}.png`), fullPage: true });

/** A plant owner whose account is an e-mail address (password reset needs one); answers the password. */
async function owner(account: string): Promise<string> {
  const created = await server.createUser('owner', account);
  await server.database.db.update(users).set({ email: account }).where(eq(users.id, created.id));
  return created.password;
}

describe('registration', () => {
  it('registers with the code read from the e-mail, then signs in with the new account', async () => {
    const account = `new-owner-${Date.now()}@example.com`;
    const { page, errors, context } = await openPage(browser, server.url);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/reg');
    await page.getByTestId('register-form').waitFor();

    await page.locator('#reg-account').fill(account);
    await page.getByTestId('reg-send-code').click();
    await page.getByText('A code is on its way to your e-mail').waitFor();
    const code = await inbox.nextCode(account);

    await page.locator('#reg-code').fill(code);
    await page.locator('#reg-nickname').fill('Nova');
    // A common password is refused by the server, beside the field, after the form's own rules pass.
    await page.locator('#reg-password').fill('Password1');
    await page.locator('#reg-confirm').fill('Password1');
    await page.getByTestId('reg-submit').click();
    await page.getByText('please read and accept the user agreement').waitFor();
    await page.locator('#reg-agree').check();
    await page.getByTestId('reg-submit').click();
    await page.getByText('this password is too common: choose one that is harder to guess').waitFor();
    await shot(page, 'register-refused');

    await page.locator('#reg-password').fill('Sunrise7Harbor');
    await page.locator('#reg-confirm').fill('Sunrise7Harbor');
    await page.getByTestId('reg-submit').click();
    await page.waitForURL('**/login');
    expect(await page.locator('input#account').inputValue()).toBe(account);
    await page.locator('input#password').fill('Sunrise7Harbor');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('user-menu').filter({ hasText: 'Nova' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the agreement in the console language and in English', async () => {
    const { page, context } = await openPage(browser, server.url);
    // The stored language choice (spec 01 §1), as the picker leaves it.
    await page.addInitScript(() => localStorage.setItem('lang', 'de'));
    await page.goto('/register/userAgreement');
    await page.getByRole('heading', { name: 'Nutzungsvereinbarung und Datenschutzhinweise' }).waitFor();
    await page.getByRole('link', { name: 'Auf Englisch lesen' }).click();
    await page.waitForURL('**/agreementen');
    await page.getByRole('heading', { name: 'User agreement and privacy notice' }).waitFor();
    await page.getByRole('heading', { name: '4. Data we process' }).waitFor();
    await shot(page, 'agreement-en');
    await context.close();
  });
});

describe('password reset', () => {
  it('resets the password with the mailed code and signs in with the new one', async () => {
    const account = `forgetful-${Date.now()}@example.com`;
    await owner(account);
    const { page, errors, context } = await openPage(browser, server.url);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forget');
    await page.locator('#forget-account').fill(`nobody-${Date.now()}@example.com`);
    await page.getByTestId('forget-send-code').click();
    await page.getByText('This account is not registered.').waitFor();

    await page.locator('#forget-account').fill(account);
    await page.getByTestId('forget-send-code').click();
    const code = await inbox.nextCode(account);
    await page.locator('#forget-code').fill(code === '000000' ? '000001' : '000000');
    await page.getByTestId('forget-verify').click();
    await page.getByText('The verification code is wrong.').waitFor();
    await page.locator('#forget-code').fill(code);
    await page.getByTestId('forget-verify').click();
    await page.locator('#forget-password').fill('New8Password');
    await page.locator('#forget-confirm').fill('New8Password');
    await shot(page, 'forget-password');
    await page.getByTestId('forget-submit').click();
    await page.waitForURL('**/resetSuccessful');
    await page.getByText('Password changed').waitFor();
    await page.getByTestId('reset-sign-in').click();
    await page.waitForURL('**/login');
    expect(await page.locator('input#account').inputValue()).toBe(account);
    await page.locator('input#password').fill('New8Password');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('user-menu').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('two-factor sign-in', () => {
  it('enrols an authenticator app in personal settings, then signs in with its code', { timeout: 120_000 }, async () => {
    const account = `careful-${Date.now()}@example.com`;
    const password = await owner(account);
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, account, password, '/edit?tab=security');
    await page.getByTestId('tfa-start').click();
    await page.getByTestId('tfa-qr').waitFor();
    const secret = (await page.getByTestId('tfa-secret').textContent())?.trim() ?? '';
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    await shot(page, 'tfa-setup');
    await page.locator('#tfa-code').fill(totp.generate());
    await page.getByTestId('tfa-confirm').click();
    await page.getByTestId('recovery-codes').waitFor();
    const recovery = await page.locator('.sw-recovery-codes span').allTextContents();
    expect(recovery).toHaveLength(10);
    await shot(page, 'tfa-recovery-codes');
    await page.getByTestId('recovery-codes-done').click();
    await page.getByText('Two-factor sign-in is on.').waitFor();

    // A fresh browser: the password alone is no longer enough.
    const second = await openPage(browser, server.url);
    await second.page.goto('/login');
    await second.page.locator('input#account').fill(account);
    await second.page.locator('input#password').fill(password);
    await second.page.getByTestId('login-submit').click();
    await second.page.getByTestId('second-factor-form').waitFor();
    await second.page.locator('#second-factor-code').fill('000000');
    await second.page.getByTestId('second-factor-submit').click();
    await second.page.getByText('The verification code is wrong.').waitFor();
    await shot(second.page, 'tfa-sign-in');
    // The code the app shows next (the one used to enrol is spent).
    await second.page.locator('#second-factor-code').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await second.page.getByTestId('second-factor-submit').click();
    await second.page.getByTestId('user-menu').waitFor();
    expect(second.errors).toEqual([]);
    await second.context.close();

    // A recovery code works once as well.
    const third = await openPage(browser, server.url);
    await third.page.goto('/login');
    await third.page.locator('input#account').fill(account);
    await third.page.locator('input#password').fill(password);
    await third.page.getByTestId('login-submit').click();
    await third.page.locator('#second-factor-code').fill(recovery[0] ?? '');
    await third.page.getByTestId('second-factor-submit').click();
    await third.page.getByTestId('user-menu').waitFor();
    await third.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('personalized settings', () => {
  it('applies the dark look, the page after sign-in and rows per page at once, and keeps them on the next visit', async () => {
    const account = `night-owl-${Date.now()}@example.com`;
    const password = await owner(account);
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, account, password);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.goto('/edit?tab=preferences');
    const form = page.getByTestId('preferences-form');
    await form.getByText('Dark', { exact: true }).click();
    await page.locator('#me-home').click();
    await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: 'Events' }));
    await page.locator('#me-page-size').click();
    await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: /^50$/ }));
    await page.getByTestId('preferences-save').click();

    // The look changes without a reload: the shell and antd's components turn dark.
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await expect.poll(() => page.locator('.sw-shell').evaluate((node) => getComputedStyle(node).backgroundColor)).toBe('rgb(0, 0, 0)');
    await shot(page, 'dark');

    // `/` opens the chosen page, and its list asks for 50 rows.
    const listCall = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return url.pathname === '/api/v1/events' && url.searchParams.get('size') === '50';
    });
    await page.goto('/');
    await page.waitForURL('**/device/event');
    await listCall;

    // The next visit starts dark (no light flash: the look is kept for the first paint) with the same choices.
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByTestId('event-list').waitFor();
    await page.getByTestId('loading-overlay').waitFor({ state: 'detached' });
    await shot(page, 'dark-events');
    expect(errors).toEqual([]);
    await context.close();
  });
});
