import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterAnswer, clickWhenOpen, launchBrowser, openMenuEntry, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

let server: TestServer;
let browser: Browser;
let guest: { account: string; password: string };

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  guest = await server.createUser('guest');
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Types a time into an antd date picker the way a user does: select the text, type, press Enter. */
async function pickTime(page: Page, id: string, text: string) {
  const input = page.locator(`#${id}`);
  await input.click();
  await input.press('Control+a');
  await input.pressSequentially(text);
  await input.press('Enter');
}

const minute = (offsetMinutes: number) => {
  const d = new Date(Date.now() + offsetMinutes * 60_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  // As the English (en-GB) pickers write a date: day/month/year.
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** The dialog's layout width (offsetWidth: not scaled by the opening animation's transform). */
const modalWidth = (page: Page, testId: string) =>
  page
    .locator('.ant-modal')
    .filter({ has: page.getByTestId(testId) })
    .evaluate((node) => (node as HTMLElement).offsetWidth);

describe('maintenance notices', () => {
  it('an administrator writes and publishes a notice; users see it once in a 700 px dialog and confirm it', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    await openMenuEntry(page, 'Management', 'Maintenance notices');
    await page.waitForURL('**/system/notices');
    await page.getByTestId('notice-empty').waitFor();

    await page.getByTestId('notice-create').click();
    const form = page.getByTestId('notice-form');
    await form.waitFor();
    // The date rules are checked as the user types: an end before the start is refused beside the field.
    await pickTime(page, 'notice-start', minute(-10));
    await pickTime(page, 'notice-end', minute(-20));
    await form.getByText('The end must be after the start').waitFor();
    await pickTime(page, 'notice-effective', minute(30));
    await pickTime(page, 'notice-end', minute(180));
    await page.getByTestId('notice-use-template').click();
    await expect.poll(() => page.locator('#notice-en-desc').inputValue()).toContain('{time}');
    await page.getByTestId('notice-pick-suggest').click();
    // The first offered suggestion is active when the list opens; Enter picks it (no click during the opening animation).
    await page.getByTitle(/save any data you are editing beforehand/).waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#notice-suggest-en-0').inputValue()).toBe('save any data you are editing beforehand');

    // The preview shows both languages with the placeholders filled.
    await page.getByTestId('notice-form-preview').click();
    await page
      .getByTestId('notice-preview-en')
      .getByText(/system maintenance at \d{4}-\d{2}-\d{2} \d{2}:\d{2}/)
      .waitFor();
    await page
      .getByTestId('notice-preview-zh')
      .getByText(/进行系统维护/)
      .waitFor();
    await page.screenshot({ path: join(tmpdir(), 'notice-preview.png') });
    await page
      .locator('.ant-modal')
      .filter({ has: page.getByTestId('notice-preview-en') })
      .locator('.ant-modal-close')
      .click();

    await page.locator('#notice-submit').click();
    await form.waitFor({ state: 'detached' });
    const table = page.getByTestId('notice-table');
    await table.getByTestId('notice-status').filter({ hasText: 'Unpublished' }).waitFor();
    await page.screenshot({ path: join(tmpdir(), 'notice-list.png') });
    await table.getByTestId('notice-publish').click();
    // Once the confirmation has opened: a click during its opening animation did nothing on a loaded CI machine.
    await clickWhenOpen(page.locator('#confirm-notice-status'));
    await table.getByTestId('notice-status').filter({ hasText: 'Publishing' }).waitFor();

    // The administrator is a user too: the notice now shows for them as well.
    await clickWhenOpen(page.getByTestId('notice-dialog-confirm'));
    await page.getByTestId('notice-dialog-confirm').waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);

    // A guest signing in sees it on load, in a 700 px dialog, with the placeholders filled.
    const user = await openPage(browser, server.url);
    await signInThroughForm(user.page, guest.account, guest.password);
    const content = user.page.getByTestId('notice-dialog-content');
    await content.waitFor();
    expect(await content.textContent()).toMatch(
      /^Dear user, .* system maintenance at \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(.+\), expected to last 2 hours\. We suggest: save any data you are editing beforehand\./,
    );
    expect(await modalWidth(user.page, 'notice-dialog-content')).toBe(700);
    await user.page.screenshot({ path: join(tmpdir(), 'notice-dialog.png') });
    await clickWhenOpen(user.page.getByTestId('notice-dialog-confirm'));
    await content.waitFor({ state: 'hidden' });
    // Confirmed once: it does not open again on the next page or after a reload.
    await afterAnswer(user.page, '/api/v1/ss/notices/view', () => user.page.reload());
    await user.page.getByTestId('user-menu').waitFor();
    expect(await content.count()).toBe(0);

    // Invalidated: it no longer shows, even in a browser that never confirmed it.
    await table.getByTestId('notice-invalidate').click();
    await clickWhenOpen(page.locator('#confirm-notice-status'));
    await table.getByTestId('notice-status').filter({ hasText: 'Invalid' }).waitFor();
    await expect(table.getByTestId('notice-publish').count()).resolves.toBe(0);
    const fresh = await openPage(browser, server.url);
    await afterAnswer(fresh.page, '/api/v1/ss/notices/view', () => signInThroughForm(fresh.page, guest.account, guest.password));
    expect(await fresh.page.getByTestId('notice-dialog-content').count()).toBe(0);
    expect([...user.errors, ...fresh.errors, ...errors]).toEqual([]);
    await Promise.all([context.close(), user.context.close(), fresh.context.close()]);
  }, 180_000);
});

describe('system versions', () => {
  it('an administrator publishes release notes; the 800 px update dialog opens once per version; /logging shows the timeline', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/system/versions');
    await page.getByTestId('version-empty').waitFor();
    // Nothing published yet: no update dialog.
    expect(await page.getByTestId('update-dialog-ok').count()).toBe(0);

    await page.getByTestId('version-create').click();
    const form = page.getByTestId('version-form');
    await page.locator('#version-number').fill('2.1.0');
    const zh = page.getByTestId('version-zh-editor');
    await zh.click();
    await page.getByRole('button', { name: 'Bold' }).first().click();
    await zh.pressSequentially('新图表');
    await form.getByRole('tab', { name: 'English notes' }).click();
    const en = page.getByTestId('version-en-editor');
    await en.click();
    await page.getByRole('button', { name: 'Bold' }).first().click();
    await en.pressSequentially('New charts for every plant');
    await form.getByRole('tab', { name: 'Preview' }).click();
    await page.getByTestId('version-preview').locator('b, strong', { hasText: 'New charts for every plant' }).waitFor();
    await page.screenshot({ path: join(tmpdir(), 'version-form.png') });
    await page.locator('#version-submit').click();
    await form.waitFor({ state: 'detached' });
    await page.getByTestId('version-table').getByTestId('version-number').filter({ hasText: '2.1.0' }).waitFor();

    // A lower number is refused beside the field as it is typed.
    await page.getByTestId('version-create').click();
    await page.locator('#version-number').fill('2.0.9');
    await page.getByText('The new version must be higher than the latest version 2.1.0.').waitFor();
    await page.keyboard.press('Escape');

    // The next load finds a version this browser has not seen: the 800 px dialog shows its notes.
    await page.reload();
    const ok = page.getByTestId('update-dialog-ok');
    await page.getByTestId('update-dialog-content').locator('b, strong', { hasText: 'New charts for every plant' }).waitFor();
    expect(await modalWidth(page, 'update-dialog-content')).toBe(800);
    await page.screenshot({ path: join(tmpdir(), 'update-dialog.png') });
    await clickWhenOpen(ok);
    await ok.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => localStorage.getItem('version'))).toBe('2.1.0');
    await afterAnswer(page, '/api/v1/version/latest', () => page.reload());
    await page.getByTestId('user-menu').waitFor();
    expect(await ok.count()).toBe(0);

    // A newer version (with markup that must never run) opens it again; its link leads to the release notes.
    const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? '{}') as { access_token: string }).access_token);
    const published = await server.app.inject({
      method: 'POST',
      url: '/api/v1/version',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        version: '2.2.0',
        zhContent: '<p>修复</p>',
        enContent: '<p>Fixes<script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2"></p>',
      }),
    });
    expect(published.json()).toMatchObject({ code: 0 });
    await page.reload();
    await page.getByTestId('update-dialog-notes').click();
    await page.waitForURL('**/systemupdate?version=2.2.0');
    await page.getByTestId('release-notes-version').filter({ hasText: 'Version 2.2.0' }).waitFor();
    await page.getByTestId('release-notes-content').getByText('Fixes').waitFor();
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.evaluate(() => localStorage.getItem('version'))).toBe('2.2.0');

    // The update log: every version as a timeline, newest first.
    await page.getByTestId('release-notes-all').click();
    await page.waitForURL('**/logging');
    await page.getByTestId('update-log').waitFor();
    await expect(page.getByTestId('update-log-version').allTextContents()).resolves.toEqual(['Version 2.2.0', 'Version 2.1.0']);
    await page.screenshot({ path: join(tmpdir(), 'update-log.png') });
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('shows the update log in Chinese to a Chinese-language user', async () => {
    const { page, context } = await openPage(browser, server.url, { locale: 'zh-CN' });
    await signInThroughForm(page, guest.account, guest.password);
    await clickWhenOpen(page.getByTestId('update-dialog-ok'));
    await page.goto('/logging');
    await page.getByTestId('update-log').getByText('新图表').waitFor();
    await page.getByTestId('update-log').getByText('修复').waitFor();
    await context.close();
  });
});
