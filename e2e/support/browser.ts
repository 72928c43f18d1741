import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's chromium, headless, with the flags this machine needs (no sandbox as root, no network chatter). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
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
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** Signs in through the form, as a user does, and waits until the shell has shown. */
export async function signInThroughForm(page: Page, account: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-submit').waitFor();
  await page.locator('input#account').fill(account);
  await page.locator('input#password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.getByTestId('user-menu').waitFor();
}
