import { companies } from '@sunward/server/db/schema';
import type { TestServer } from '@sunward/server/test/harness';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './support/browser.js';
import { startProduct } from './support/product.js';

/*
 * A company that requires two-factor sign-in (issue 15, finding 7): the server answers its unenrolled
 * members only on the enrolment routes (default deny, the live stream refused); the console still takes
 * such a member to personal settings, where enrolling works, and then everything opens.
 */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('required two-factor sign-in', () => {
  it('sends an unenrolled member to personal settings, where enrolling works, then opens the console', { timeout: 120_000 }, async () => {
    const companyId = await server.createCompany('Strict Browser Solar');
    await server.database.db.update(companies).set({ requireTwoFactor: true }).where(eq(companies.id, companyId));
    const member = await server.createUser('company_staff', `strict-${Date.now()}@example.com`, { companyId });

    const { page, errors, context } = await openPage(browser, server.url);
    await page.goto('/login');
    await page.locator('input#account').fill(member.account);
    await page.locator('input#password').fill(member.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/edit');
    await page.getByTestId('tfa-start').click();
    await page.getByTestId('tfa-qr').waitFor();
    const secret = (await page.getByTestId('tfa-secret').textContent())?.trim() ?? '';
    await page.locator('#tfa-code').fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
    await page.getByTestId('tfa-confirm').click();
    await page.getByTestId('recovery-codes').waitFor();
    await page.getByTestId('recovery-codes-done').click();
    await page.getByText('Two-factor sign-in is on.').waitFor();

    // Enrolled: the console no longer holds the member in personal settings.
    await page.goto('/');
    await page.waitForURL((url) => !['/', '/edit', '/login'].includes(url.pathname));
    await page.getByTestId('user-menu').waitFor();
    expect(new URL(page.url()).pathname).not.toBe('/edit');
    await page.getByTestId('user-menu').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
