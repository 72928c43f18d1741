import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser } from 'playwright-core';
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

describe('dictionary management', () => {
  it('adds a currency that the plant wizard then offers; a duplicate code is refused beside the code; disabling removes it', async () => {
    await server.registerGateway('GWDICT001', 'dictkey42');
    const { page, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/system/dictionary');
    const table = page.getByTestId('dict-table');
    await table.getByText('EUR', { exact: true }).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // One text for every language (internationalised off).
    await page.getByTestId('dict-add').click();
    const form = page.getByTestId('dict-form');
    await form.waitFor();
    await page.locator('#dict-code').fill('XPT');
    await page.locator('#dict-sort').fill('1');
    await page.locator('#dict-i18n').click();
    await page.locator('#dict-text-cn').waitFor({ state: 'detached' });
    await page.locator('#dict-text-en').fill('Platinum ounce');
    await page.locator('#dict-submit').click();
    await form.waitFor({ state: 'detached' });
    await table.getByText('Platinum ounce').waitFor();

    // The same code again: the spec's message under the code field, nothing added.
    await page.getByTestId('dict-add').click();
    await page.locator('#dict-code').fill('XPT');
    for (const input of await page.locator('[id^=dict-text-]').all()) await input.fill('Again');
    await page.locator('#dict-submit').click();
    await page
      .locator('.ant-form-item')
      .filter({ has: page.locator('#dict-code') })
      .getByText('This dictionary code already exists.')
      .waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });

    // The plant wizard's currency choice offers it.
    await page.goto('/plant-add');
    await page.getByTestId('gateway-sn').fill('GWDICT001');
    await page.getByTestId('gateway-key').fill('dictkey42');
    await page.getByTestId('gateway-check').click();
    await page.getByTestId('gateway-check-ok').waitFor();
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('[data-testid=wizard-next]')?.disabled);
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-revenue').waitFor();
    await page.getByTestId('tariff-currency').click();
    await page.keyboard.type('XPT');
    await page.locator('.ant-select-item-option', { hasText: 'XPT · Platinum ounce' }).waitFor();
    await page.keyboard.press('Escape');

    // Disabled, it is no longer offered.
    await page.goto('/system/dictionary?keyword=XPT');
    await page.getByTestId('dict-toggle-XPT').click();
    await clickWhenOpen(page.getByRole('button', { name: 'Disable' }).last());
    await table.getByText('Disabled', { exact: true }).waitFor();
    const { access_token } = await signIn(server.app, ADMIN.account, ADMIN.password);
    const currencies = await call<{ value: string }[]>(server.app, 'GET', '/api/v1/dict/currencies', { token: access_token });
    expect(currencies.body.data.some((c) => c.value === 'XPT')).toBe(false);
    expect(errors).toEqual([]);
  });
});
