import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
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

/** Clicks the header's help button and returns the tab it opens, once its page has shown. */
async function openHelp(page: Page): Promise<Page> {
  const [help] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('help-button').click()]);
  await help.getByTestId('help-page').locator('h1').waitFor();
  return help;
}

describe('help', () => {
  it("opens the shipped documentation of the page on show, in the user's language", async () => {
    // English: the plant list's help.
    const english = await openPage(browser, server.url);
    await signInThroughForm(english.page, ADMIN.account, ADMIN.password);
    await english.page.goto('/plants');
    const plantsHelp = await openHelp(english.page);
    const url = new URL(plantsHelp.url());
    expect(url.pathname).toBe('/help/plants');
    expect(url.searchParams.get('lan')).toBe('en');
    expect(await plantsHelp.getByTestId('help-page').locator('h1').textContent()).toBe('Plant list');
    expect(await plantsHelp.getByTestId('help-fallback').count()).toBe(0);
    expect(await seriousAccessibilityProblems(plantsHelp)).toEqual([]);
    // Its contents lead to the other pages, in the same language.
    await plantsHelp.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name: 'Reports' }).click();
    await plantsHelp.getByTestId('help-page').locator('h1').filter({ hasText: 'Reports' }).waitFor();
    expect(new URL(plantsHelp.url()).searchParams.get('lan')).toBe('en');

    // German, picked in the header (the page reloads in it): the event list's help.
    const { page } = english;
    await page.goto('/device/event');
    await page.getByTestId('language-picker').click();
    await Promise.all([page.waitForEvent('load'), clickWhenOpen(page.getByRole('menuitem', { name: 'Deutsch' }))]);
    await page.getByTestId('user-menu').waitFor();
    const eventsHelp = await openHelp(page);
    expect(new URL(eventsHelp.url()).pathname).toBe('/help/events');
    expect(new URL(eventsHelp.url()).searchParams.get('lan')).toBe('de');
    expect(await eventsHelp.getByTestId('help-page').locator('h1').textContent()).toBe('Ereignisse und Alarme');
    expect(await eventsHelp.locator('article').getAttribute('lang')).toBe('de-DE');
    expect(await seriousAccessibilityProblems(eventsHelp)).toEqual([]);

    expect(english.errors).toEqual([]);
  });

  it('never shows the unsupported-browser notice on a supported browser, from the first paint on', async () => {
    const { page, errors } = await openPage(browser, server.url);
    // Records whether the notice is ever in the page, before any of the page's own scripts run.
    await page.addInitScript(() => {
      const seen = { notice: false };
      (window as unknown as { noticeSeen: typeof seen }).noticeSeen = seen;
      new MutationObserver(() => {
        if (document.getElementById('unsupported-browser')) seen.notice = true;
      }).observe(document, { childList: true, subtree: true });
    });
    const check = page.waitForResponse((r) => new URL(r.url()).pathname === '/browser-check.js');
    await page.goto('/login');
    expect((await check).status()).toBe(200);
    await page.getByTestId('login-submit').waitFor();
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/plants');
    await page.getByTestId('help-button').waitFor();
    // The check ran and found nothing missing in this Chromium.
    expect(
      await page.evaluate(() =>
        (window as unknown as { sunwardBrowserCheck: { missingFeatures(w: Window): string[] } }).sunwardBrowserCheck.missingFeatures(
          window,
        ),
      ),
    ).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { noticeSeen: { notice: boolean } }).noticeSeen.notice)).toBe(false);
    expect(errors).toEqual([]);
  });
});
