import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { gateways } from '@sunward/server/db/schema';
import type { TestServer } from '@sunward/server/test/harness';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';
import { noonLongitude, runSimulator } from './support/simulator.js';

let server: TestServer;
let browser: Browser;
let user: { account: string; password: string };
let simulator: ReturnType<typeof runSimulator> | undefined;
const dir = mkdtempSync(join(tmpdir(), 'sunward-gw-e2e-'));

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const company = await server.createCompany('Gateway Installers Ltd');
  user = await server.createUser('company_admin', 'installer@gw.test', { companyId: company });
});

afterAll(async () => {
  simulator?.stop();
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function signedIn() {
  const opened = await openPage(browser, server.url);
  await signInThroughForm(opened.page, user.account, user.password);
  return opened;
}

async function gatewayRow(sn: string) {
  const [row] = await server.database.db.select().from(gateways).where(eq(gateways.sn, sn));
  return row;
}

describe('gateway list', () => {
  it('imports a spreadsheet with a bad row as a user does: 2 imported, the bad row named, the list shows them', async () => {
    const { page, errors, context } = await signedIn();
    await page.goto('/device/gateway/list');
    await page.getByTestId('gateway-empty').waitFor();

    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Gateways');
    sheet.addRow(['SN', 'Registration key', 'Alias']);
    sheet.addRow(['GWE2E00001', 'e2ekey0001', 'Barn roof']);
    sheet.addRow(['GWE2E00002', 'e2ekey0002', null]);
    sheet.addRow(['GW E2E BAD', 'e2ekey0003', null]);
    const file = join(dir, 'gateways.xlsx');
    writeFileSync(file, Buffer.from(await book.xlsx.writeBuffer()));

    await page.getByTestId('gateway-import').click();
    const dialog = page.getByTestId('gateway-import-modal');
    await dialog.locator('input[type=file]').setInputFiles(file);
    await dialog.getByText('gateways.xlsx').waitFor();
    await page.locator('#gateway-import-submit').click();

    await expect.poll(() => page.getByTestId('gateway-imported-count').textContent()).toMatch(/2 gateway/);
    const problems = page.getByTestId('gateway-import-errors');
    await problems.getByText('GW E2E BAD').waitFor();
    await expect.poll(() => problems.textContent()).toMatch(/row|Row/);
    expect(await problems.textContent()).toContain('the SN must be 2 to 32 letters, digits, dashes or underscores');
    expect(await problems.locator('tbody tr').count()).toBe(1);
    await page.screenshot({ path: join(tmpdir(), 'gateway-import-result.png') });
    await page.locator('#gateway-import-submit').click();

    const table = page.getByTestId('gateway-table');
    await table.getByText('GWE2E00001').waitFor();
    await table.getByText('GWE2E00002').waitFor();
    await table.getByText('Barn roof').waitFor();
    await expect.poll(() => page.getByTestId('gateway-count-total').textContent()).toMatch(/2/);
    await page.screenshot({ path: join(tmpdir(), 'gateway-list-imported.png') });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('locks and unlocks a gateway played by the simulator, over the real protocol', async () => {
    // The simulator plays the imported gateway GWE2E00002 with its key; the server sees it online.
    const longitude = noonLongitude();
    const fleet: SimulatedFleet = {
      seed: 5,
      mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
      gateways: [
        {
          sn: 'GWE2E00002',
          key: 'e2ekey0002',
          intervalSeconds: 2,
          spare: true,
          plant: { name: 'Spare', latitude: 5, longitude, timezone: 'UTC', capacityKwp: 5, plantType: 3, load: 'household' },
          devices: [{ sn: 'INE2E00002', protocolId: 'sunspec-inverter-1p', family: 'inverter', ratedPowerW: 5000 }],
        },
      ],
    };
    simulator = runSimulator(fleet);
    await vi.waitFor(
      async () => {
        if (!(await gatewayRow('GWE2E00002'))?.online) throw new Error('simulated gateway not online yet');
      },
      { timeout: 30_000, interval: 250 },
    );

    const { page, errors, context } = await signedIn();
    await page.goto('/device/gateway/list?keyword=GWE2E00002');
    const table = page.getByTestId('gateway-table');
    const row = table.locator('tr', { hasText: 'GWE2E00002' });
    await row.locator('[data-status="online"]').waitFor();

    await row.getByTestId('gateway-actions').click();
    await clickWhenOpen(page.getByRole('menuitem', { name: 'Lock' }));
    await page.locator('#confirm-lock').click();
    await page.getByText('GWE2E00002 is locked').waitFor();
    await row.getByTestId('gateway-locked').waitFor();
    expect((await gatewayRow('GWE2E00002'))?.locked).toBe(true);
    // While locked the digital output cannot be switched.
    expect(await row.getByTestId('gateway-output').isDisabled()).toBe(true);
    await page.getByText('GWE2E00002 is locked').waitFor({ state: 'detached' });
    await page.screenshot({ path: join(tmpdir(), 'gateway-list-locked.png') });

    await row.getByTestId('gateway-actions').click();
    await clickWhenOpen(page.getByRole('menuitem', { name: 'Unlock' }));
    await page.getByText('GWE2E00002 is unlocked').waitFor();
    await expect.poll(async () => (await gatewayRow('GWE2E00002'))?.locked).toBe(false);
    await expect.poll(() => row.getByTestId('gateway-locked').count()).toBe(0);

    // The digital output goes on through the simulator too.
    await row.getByTestId('gateway-output').click();
    await expect.poll(async () => (await gatewayRow('GWE2E00002'))?.digitalOutput).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
