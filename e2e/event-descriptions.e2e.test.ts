import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

/*
 * Issue 21: the event description screen. The platform administrator opens it from the event list, reads a
 * protocol's codes, tries a file with the wrong columns (refused, in words), imports German texts and sees
 * them marked as imported, downloads the German template, and edits one code's texts in the console.
 */

let server: TestServer;
let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'sunward-eventdesc-'));

async function workbookFile(name: string, rows: (string | number)[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Events');
  for (const row of rows) sheet.addRow(row);
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(await book.xlsx.writeBuffer()));
  return path;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  await signIn(server.app, ADMIN.account, ADMIN.password);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('event descriptions', () => {
  it('shows a protocol’s codes, refuses a file with wrong columns, imports German texts, downloads the template and edits one code', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/device/event');
    await page.getByTestId('event-descriptions-link').click();
    const screen = page.getByTestId('event-descriptions');
    await screen.locator('tr', { hasText: '1001' }).first().waitFor();
    expect(await screen.locator('tr', { hasText: '1001' }).first().textContent()).toMatch(/Ground fault/i);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // Wrong columns: refused with the template's columns, nothing stored.
    await page.getByTestId('event-descriptions-import').click();
    const dialog = page.getByTestId('event-descriptions-import-dialog');
    await dialog.locator('input[type=file]').setInputFiles(
      await workbookFile('wrong.xlsx', [
        ['code', 'text'],
        [1001, 'x'],
      ]),
    );
    await page.locator('#event-descriptions-import-submit').click();
    await expect
      .poll(() => page.getByTestId('event-descriptions-import-refusal').textContent())
      .toContain('protocol, code, language, description, solution');

    // The right columns: imported, shown in German.
    await dialog.locator('input[type=file]').setInputFiles(
      await workbookFile('de.xlsx', [
        ['protocol', 'code', 'language', 'description', 'solution'],
        ['sunspec-inverter-1p', 1001, 'de', 'Erdschluss', 'Isolation der PV-Leitungen prüfen'],
      ]),
    );
    await page.locator('#event-descriptions-import-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('event-descriptions-language').click();
    await clickWhenOpen(page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'German' }).first());
    const row = screen.locator('tr', { hasText: '1001' }).first();
    await expect.poll(() => row.textContent()).toMatch(/Erdschluss.*Isolation der PV-Leitungen prüfen.*Imported/);
    expect(new URL(page.url()).searchParams.get('language')).toBe('de');
    // Built-in texts are German too.
    await expect.poll(() => screen.locator('tr', { hasText: '1002' }).first().textContent()).toContain('DC-Eingangsüberspannung');

    // The template: this protocol's codes with their German texts, the import's columns.
    const [template] = await Promise.all([page.waitForEvent('download'), page.getByTestId('event-descriptions-template').click()]);
    expect(template.suggestedFilename()).toBe('event-descriptions-sunspec-inverter-1p-de.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await template.path());
    const sheet = book.worksheets[0];
    expect(sheet?.getRow(1).values).toEqual([undefined, 'protocol', 'code', 'language', 'description', 'solution']);
    expect(sheet?.getRow(2).values).toEqual([
      undefined,
      'sunspec-inverter-1p',
      1001,
      'de',
      'Erdschluss',
      'Isolation der PV-Leitungen prüfen',
    ]);

    // One code's texts edited here: an empty description is refused beside its field, then saved.
    await page.getByTestId('event-description-edit-1002').click();
    const form = page.getByTestId('event-description-form');
    await form.locator('#event-description-text').fill('');
    await page.locator('#event-description-submit').click();
    await expect.poll(() => form.textContent()).toContain('Required');
    await form.locator('#event-description-text').fill('Überspannung am DC-Eingang');
    await form.locator('#event-description-solution').fill('Leerlaufspannung der Strings prüfen');
    await page.locator('#event-description-submit').click();
    await form.waitFor({ state: 'hidden' });
    await expect
      .poll(() => screen.locator('tr', { hasText: '1002' }).first().textContent())
      .toMatch(/Überspannung am DC-Eingang.*Leerlaufspannung der Strings prüfen.*Imported/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
