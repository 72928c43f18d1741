import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import { pngImage } from '@sunward/server/test/oem-fixtures';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

let server: TestServer;
let browser: Browser;
const BASE = 'sunward.test';

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startProduct({ BASE_DOMAIN: BASE }),
    // Every <name>.sunward.test reaches this machine, as a wildcard DNS record would.
    launchBrowser([`--host-resolver-rules=MAP *.${BASE} 127.0.0.1`]),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const png = (name: string, width: number, height: number) => ({
  name,
  mimeType: 'image/png',
  buffer: pngImage(width, height, [10, 125, 79]),
});

describe('OEM branding', () => {
  it('an OEM made in the console brands its domain, sign-in admits its company only, and a disabled one is not available', async () => {
    const companyId = await server.createCompany('Solaris Energy');
    const member = await server.createUser('company_admin', undefined, { companyId });
    const outsider = await server.createUser('owner');
    const port = new URL(server.url).port;
    const oemUrl = `http://solaris.${BASE}:${port}`;

    // The platform administrator creates the project on the bare host.
    const admin = await openPage(browser, server.url);
    const page = admin.page;
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/system/oem');
    await page.getByTestId('oem-add').click();
    const form = page.getByTestId('oem-form');
    await form.waitFor();
    await page.locator('#oem-company').click();
    await page.keyboard.type('Solaris');
    await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: 'Solaris Energy' }));
    await page.locator('#oem-customer').fill('Solaris Energy GmbH');
    // A domain with capitals is refused beside the field before anything is sent.
    await page.locator('#oem-domain').fill('Solaris');
    await page.locator('#oem-app-name').fill('Solaris Cloud');
    await page.locator('#oem-colour').fill('#0A7D4F');
    await page.locator('#oem-submit').click();
    await form.getByText('At most 10 lowercase letters and digits', { exact: true }).waitFor();
    await page.locator('#oem-domain').fill('solaris');
    await page.locator('#oem-submit').click();
    await form.waitFor({ state: 'detached' });
    const table = page.getByTestId('oem-table');
    await table.getByText('Solaris Cloud').waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // Logos: an SVG is refused with the spec's words, PNGs of the right size are kept.
    await page.getByTestId('oem-files-solaris').click();
    await page.getByTestId('oem-file-systemLogo').setInputFiles({
      name: 'logo.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    });
    await page.getByTestId('oem-slot-error-systemLogo').filter({ hasText: 'must be a PNG or JPEG image' }).waitFor();
    await page.getByTestId('oem-file-loginLogo').setInputFiles(png('login.png', 220, 80));
    await page.getByTestId('oem-slot-loginLogo').locator('img').waitFor();
    await page.getByTestId('oem-file-systemLogo').setInputFiles(png('system.png', 220, 60));
    await page.getByTestId('oem-slot-systemLogo').locator('img').waitFor();
    await page.getByTestId('oem-slot-error-systemLogo').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');

    // The OEM's domain: its name and logo on the sign-in page, in the HTML itself (no flash of the default brand).
    const oem = await openPage(browser, oemUrl);
    // Every text the sign-in brand ever shows, from the first paint on: the default brand must never appear.
    await oem.page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { brandTexts: string[] }).brandTexts = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="login-brand"]')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const html = await (await oem.page.goto('/login'))?.text();
    expect(html).toContain('<title>Solaris Cloud</title>');
    expect(html).toContain('id="sunward-brand"');
    await oem.page.getByTestId('login-brand').filter({ hasText: 'Solaris Cloud' }).waitFor();
    expect(await oem.page.evaluate(() => (window as unknown as { brandTexts: string[] }).brandTexts)).toEqual(['Solaris Cloud']);
    expect(await oem.page.getByTestId('login-brand').locator('img').getAttribute('src')).toContain('/api/v1/oem/files/');
    // An account outside the OEM's company is refused there...
    await oem.page.locator('input#account').fill(outsider.account);
    await oem.page.locator('input#password').fill(outsider.password);
    await oem.page.getByTestId('login-submit').click();
    await oem.page.getByTestId('login-refusal').filter({ hasText: 'This account cannot sign in on this site.' }).waitFor();
    // ...its own company's administrator signs in and sees the OEM's logo in the console.
    await signInThroughForm(oem.page, member.account, member.password);
    await oem.page.getByTestId('brand-logo').waitFor();
    expect(await oem.page.title()).toContain('Solaris Cloud');

    // The bare host keeps the product's brand.
    const bare = await openPage(browser, server.url);
    await bare.page.goto('/login');
    await bare.page.getByTestId('login-brand').filter({ hasText: 'Sunward' }).waitFor();

    // Disabled, the domain answers "not available".
    await page.getByTestId('oem-toggle-solaris').click();
    await clickWhenOpen(page.getByRole('button', { name: 'Disable' }).last());
    await table.getByText('Disabled', { exact: true }).waitFor();
    const off = await openPage(browser, oemUrl);
    const answer = await off.page.goto('/login');
    expect(answer?.status()).toBe(404);
    await off.page.getByRole('heading', { name: 'This site is not available' }).waitFor();

    expect([...admin.errors, ...oem.errors, ...bare.errors]).toEqual([]);
  });
});
