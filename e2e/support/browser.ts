import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's chromium, headless, with the flags this machine needs (no sandbox as root, no network chatter). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `extraArgs`: flags a test needs on top (a host name mapped to 127.0.0.1, a self-signed certificate). */
export function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--disable-sync',
      // No optimising compiler for the console's scripts: a test page runs them for seconds, not hours. A
      // sign-in and five pages in a fresh context took 11 % less of the CPU (22.2 → 19.7 CPU-s for two rounds).
      '--js-flags=--no-opt',
      ...extraArgs,
    ],
  });
}

export interface BrowserPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors seen so far: a test ends by asserting there are none. */
  errors: string[];
}

export async function openPage(browser: Browser, baseURL: string, options: { locale?: string } = {}): Promise<BrowserPage> {
  const context = await browser.newContext({ baseURL, locale: options.locale ?? 'en-GB', viewport: { width: 1366, height: 860 } });
  const page = await context.newPage();
  // Generous for a loaded CI machine (several browsers, servers and simulators on two cores); a pass is not slower.
  page.setDefaultTimeout(30_000);
  // A fresh context's first load runs the whole console (about 7 CPU-s): on a CI machine at load 11 a public page's
  // load event once took over 30 s. Navigations get twice the time; a pass is not slower.
  page.setDefaultNavigationTimeout(60_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/**
 * Signs in through the form, as a user does, and waits until the shell has shown. With `at` (a console path), the
 * user opens that page signed out, is sent to sign in, and lands on it: one console page load instead of the home
 * page and then a second full load (about 4-5 CPU-s of the browser each on a 2-core machine).
 */
export async function signInThroughForm(page: Page, account: string, password: string, at?: string): Promise<void> {
  await page.goto(at ?? '/login');
  await page.getByTestId('login-submit').waitFor();
  await page.locator('input#account').fill(account);
  await page.locator('input#password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.getByTestId('user-menu').waitFor();
}

/**
 * Runs an action (a reload, a sign-in) and waits until the page has had the answer to a call whose path
 * contains `path` and has rendered it: the condition a "nothing shows" assertion needs, without networkidle
 * (the live notification stream keeps the network busy).
 */
export async function afterAnswer(page: Page, path: string, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForResponse((response) => new URL(response.url()).pathname.includes(path)), action()]);
  await nextFrames(page);
}

/** Waits two animation frames and a task: what a render, or a box hidden after an animation's end event, needs to show. */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))));
}

/**
 * Clicks a button in a popup (popconfirm, confirm dialog) once the popup has finished opening: a click during
 * antd's opening animation can land on a box that is still growing and do nothing on a loaded machine.
 */
/**
 * Opens a side-menu entry under a group: the group's submenu is opened unless it already is, and the entry is
 * clicked once the submenu's opening animation is over (a click during it did not navigate on the loaded CI machine).
 */
export async function openMenuEntry(scope: Page | Locator, group: string | RegExp, entry: string): Promise<void> {
  const item = scope.getByRole('menuitem', { name: entry });
  if (!(await item.isVisible())) await scope.getByRole('menuitem', { name: group }).click();
  await clickWhenOpen(item);
}

export async function clickWhenOpen(button: Locator): Promise<void> {
  await button.waitFor();
  await expect
    .poll(() => button.evaluate((node) => node.closest('[class*="-appear"], [class*="-enter"]') === null), { timeout: 30_000 })
    .toBe(true);
  await button.click();
}
