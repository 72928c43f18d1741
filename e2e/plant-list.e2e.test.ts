import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DownloadRecordPage } from '@sunward/contracts/files';
import type { PlantCreate, ShareUser } from '@sunward/contracts/plants';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

let server: TestServer;
let browser: Browser;
let adminToken: string;
const ids: Record<string, number> = {};

/** Six plants around the world: 2 normal, 1 offline, 1 warning, 2 faults. */
const PLANTS: { name: string; lat: number; lng: number; status: number; plantType: 1 | 2 | 3 }[] = [
  { name: 'Alpha Solar Park', lat: 52.52, lng: 13.4, status: 1, plantType: 1 },
  { name: 'Beta Rooftop Array', lat: 40.42, lng: -3.7, status: 1, plantType: 1 },
  { name: 'Gamma Storage Hub', lat: -33.87, lng: 151.21, status: 4, plantType: 2 },
  { name: 'Delta Valley Farm', lat: 35.68, lng: 139.69, status: 4, plantType: 3 },
  { name: 'Epsilon Hill Plant', lat: -23.55, lng: -46.63, status: 3, plantType: 1 },
  { name: 'Zeta Lake Station', lat: -1.29, lng: 36.82, status: 2, plantType: 1 },
];

async function createPlant(name: string, lat: number, lng: number, plantType: 1 | 2 | 3, index: number): Promise<number> {
  const gateway = { sn: `GWLIST${String(index).padStart(4, '0')}`, key: `listkey${index}secret` };
  await server.registerGateway(gateway.sn, gateway.key);
  const body: PlantCreate = {
    name,
    capacityKwp: 10 + index * 12.5,
    plantType,
    latitude: lat,
    longitude: lng,
    timezone: 'Europe/Berlin',
    region: index % 2 ? 'North' : 'South',
    meteringTopology: 'gross',
    gateways: [gateway],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const result = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token: adminToken, json: body });
  if (result.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(result.body)}`);
  return result.body.data.id;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  adminToken = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const { plants } = await import('@sunward/server/db/schema');
  for (const [index, plant] of PLANTS.entries()) {
    const id = await createPlant(plant.name, plant.lat, plant.lng, plant.plantType, index);
    ids[plant.name] = id;
    // The statuses a fleet would report: set directly, no gateway is online in this test.
    await server.database.db.update(plants).set({ status: plant.status }).where(eq(plants.id, id));
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openList(account = ADMIN.account, password = ADMIN.password) {
  const opened = await openPage(browser, server.url);
  await signInThroughForm(opened.page, account, password);
  if (new URL(opened.page.url()).pathname !== '/plants') await opened.page.goto('/plants');
  await opened.page.getByTestId('plant-list-page').waitFor();
  return opened;
}

function count(page: Page, field: string) {
  return page.getByTestId(`plant-count-${field}`).locator('.sw-plant-count-value');
}

/** Waits until the table lists exactly these plants (in any order). */
async function expectRows(page: Page, names: string[]) {
  await expect
    .poll(async () => (await page.getByTestId('plant-link').allTextContents()).sort(), { timeout: 30_000 })
    .toEqual([...names].sort());
}

function row(page: Page, name: string) {
  return page.getByTestId('plant-table').locator('tbody tr', { has: page.getByRole('link', { name, exact: true }) });
}

describe('plant list', () => {
  it('counts plants by status and filters the list by a clicked count, kept in the address across a reload', async () => {
    const { page, context, errors } = await openList();
    await count(page, 'total').filter({ hasText: '6' }).waitFor();
    await expect(count(page, 'normal').textContent()).resolves.toBe('2');
    await expect(count(page, 'offline').textContent()).resolves.toBe('1');
    await expect(count(page, 'warning').textContent()).resolves.toBe('1');
    await expect(count(page, 'fault').textContent()).resolves.toBe('2');
    await expectRows(
      page,
      PLANTS.map((p) => p.name),
    );

    await page.getByRole('link', { name: 'Fault 2' }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === '4');
    await expectRows(page, ['Gamma Storage Hub', 'Delta Valley Farm']);
    await expect(page.getByTestId('plant-table').locator('tbody tr .ant-tag[data-status=fault]').count()).resolves.toBe(2);
    await expect(page.getByTestId('plant-count-fault').getAttribute('aria-current')).resolves.toBe('true');

    await page.reload();
    await expectRows(page, ['Gamma Storage Hub', 'Delta Valley Farm']);
    await expect(page.getByTestId('plant-count-fault').getAttribute('aria-current')).resolves.toBe('true');

    await page.getByTestId('plant-count-total').click();
    await page.waitForURL((url) => !url.searchParams.has('status'));
    await expectRows(
      page,
      PLANTS.map((p) => p.name),
    );
    // Numbers and units as the list shows them: capacity in kWp, a link to the plant's overview.
    const alpha = row(page, 'Alpha Solar Park');
    await expect(alpha.textContent()).resolves.toContain('10 kWp');
    await expect(alpha.getByRole('link', { name: 'Alpha Solar Park' }).getAttribute('href')).resolves.toBe(
      `/plants/overview/${ids['Alpha Solar Park']}/1`,
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a Protection count while a plant is in protection, so the counts add up to Total, and filters by it', async () => {
    const { plants } = await import('@sunward/server/db/schema');
    const zeta = { id: ids['Zeta Lake Station'] ?? 0 };
    const { page, context, errors } = await openList();
    await count(page, 'total').filter({ hasText: '6' }).waitFor();
    expect(await page.getByTestId('plant-count-protect').count()).toBe(0);
    await server.database.db.update(plants).set({ status: 6 }).where(eq(plants.id, zeta.id));
    try {
      await page.reload();
      await count(page, 'protect').filter({ hasText: '1' }).waitFor();
      const shown = await page
        .locator('[data-testid^="plant-count-"]:not([data-testid="plant-count-total"]) .sw-plant-count-value')
        .allTextContents();
      expect(shown.reduce((sum, value) => sum + Number(value), 0)).toBe(6);
      await page.getByTestId('plant-count-protect').click();
      await page.waitForURL((url) => url.searchParams.get('status') === '6');
      await expectRows(page, ['Zeta Lake Station']);
      expect(await seriousAccessibilityProblems(page)).toEqual([]);
    } finally {
      await server.database.db.update(plants).set({ status: 2 }).where(eq(plants.id, zeta.id));
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('searches by name and remembers the search for the next visit', async () => {
    const { page, context, errors } = await openList();
    const box = page.getByRole('combobox', { name: 'Search by plant name' });
    await box.fill('Gamma');
    await box.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('keyword') === 'Gamma');
    await expectRows(page, ['Gamma Storage Hub']);

    // A fresh visit: the box offers the remembered search when focused.
    await page.goto('/plants');
    await expectRows(
      page,
      PLANTS.map((p) => p.name),
    );
    await page.getByRole('combobox', { name: 'Search by plant name' }).click();
    const option = page.getByRole('option', { name: 'Gamma' });
    await option.waitFor();
    await option.click();
    await expectRows(page, ['Gamma Storage Hub']);
    await expect(page.evaluate(() => Object.entries(localStorage).find(([k]) => k.startsWith('plantSearchHistory'))?.[1])).resolves.toBe(
      '["Gamma"]',
    );

    // The history can be cleared from the same list.
    await page.getByRole('combobox', { name: 'Search by plant name' }).click();
    await page.getByTestId('clear-search-history').click();
    await expect
      .poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('plantSearchHistory')).length))
      .toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows every plant on the map as status-coloured markers, with a popup that loads the plant', async () => {
    const { page, context, errors } = await openList();
    await page.getByTestId('view-toggle').getByText('Map').click();
    await page.waitForURL((url) => url.searchParams.get('view') === 'map');
    // Markers and clusters together stand for all six plants, whether or not tiles load (no network here).
    const plantsOnMap = () =>
      page.evaluate(() => {
        const clustered = [...document.querySelectorAll<HTMLElement>('.sw-cluster [data-count]')].reduce(
          (sum, el) => sum + Number(el.dataset.count),
          0,
        );
        return clustered + document.querySelectorAll('path.sw-marker.leaflet-interactive').length;
      });
    await expect.poll(plantsOnMap).toBe(6);
    await expect(page.locator('path.sw-marker-fault').count()).resolves.toBeGreaterThanOrEqual(1);

    // A plant on its own: its popup loads name, status and power, with a link to its overview.
    const sydney = page.locator('path.sw-marker-fault').first();
    await sydney.click({ force: true });
    const popup = page.getByTestId('map-popup');
    await popup.waitFor();
    await expect(popup.textContent()).resolves.toMatch(/Gamma Storage Hub|Delta Valley Farm/);
    await expect(popup.textContent()).resolves.toContain('Fault');
    await popup.getByRole('link', { name: 'Open overview' }).waitFor();

    // The map follows the same filters: faults only.
    await page.getByRole('link', { name: 'Fault 2' }).click();
    await expect.poll(plantsOnMap).toBe(2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('enables Compare for 2 to 6 ticked plants and opens the comparison with their ids', async () => {
    const { page, context, errors } = await openList();
    const compare = page.getByTestId('plant-compare');
    await expectRows(
      page,
      PLANTS.map((p) => p.name),
    );
    await expect(compare.isDisabled()).resolves.toBe(true);
    await row(page, 'Gamma Storage Hub').getByRole('checkbox').check();
    await expect(compare.isDisabled()).resolves.toBe(true);
    await row(page, 'Alpha Solar Park').getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Compare (2)' }).waitFor();
    await compare.click();
    await page.waitForURL((url) => url.pathname === '/plants/compare');
    expect(new URL(page.url()).searchParams.get('ids')).toBe(`${ids['Gamma Storage Hub']},${ids['Alpha Solar Park']}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('downloads a plant’s daily generation and imports a prediction file, showing the server’s refusals', async () => {
    const { plantEnergyDaily } = await import('@sunward/server/db/schema');
    const pad = (n: number) => String(n).padStart(2, '0');
    const now = new Date();
    const month = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
    const days = [...new Set([`${month}-01`, `${month}-${pad(now.getDate())}`])];
    await server.database.db
      .insert(plantEnergyDaily)
      .values(days.map((day, i) => ({ plantId: ids['Alpha Solar Park'] as number, day, energyWh: 12_500 + i * 1000 })));
    const { page, context, errors } = await openList();

    // Download: the dialog's range defaults to this month.
    await page.getByTestId('plant-download').click();
    const download = page.locator('.ant-modal', { hasText: 'Download daily generation' });
    await download.getByTestId('plant-picker').click();
    await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: 'Alpha Solar Park' }));
    const [file] = await Promise.all([page.waitForEvent('download'), download.getByRole('button', { name: 'Download' }).click()]);
    expect(file.suggestedFilename()).toBe(`generation-${ids['Alpha Solar Park']}-${month}-01-${days.at(-1)}.xlsx`);
    const saved = join(mkdtempSync(join(tmpdir(), 'plant-list-')), 'generation.xlsx');
    await file.saveAs(saved);
    await download.waitFor({ state: 'hidden' });

    // More than 20,000 days at once: past the immediate limit, the file is prepared in the download centre.
    await page.getByTestId('plant-download').click();
    await download.getByTestId('plant-picker').click();
    await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: 'Alpha Solar Park' }));
    const [fromInput, toInput] = [download.locator('.ant-picker-input input').first(), download.locator('.ant-picker-input input').nth(1)];
    await fromInput.click();
    // English dates as en-GB writes them (the pickers follow the locale).
    await fromInput.fill('01/01/1960');
    await fromInput.press('Enter');
    await toInput.fill('31/12/2025');
    await toInput.press('Enter');
    await download.getByRole('button', { name: 'Download' }).click();
    await page.getByTestId('generation-export-started').filter({ hasText: 'is being prepared in the download centre' }).waitFor();
    await download.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => {
        const list = await call<DownloadRecordPage>(server.app, 'GET', '/api/v1/fileDownloadRecord/list?page=1&size=20', {
          token: adminToken,
        });
        return list.body.data.infos.find((r) => r.kind === 'generation');
      })
      // The days measured this month lie after the range's end: the finished file holds none.
      .toMatchObject({ status: 'done', rows: 0 });

    // Import: a file that is not a workbook is refused with the server's reason.
    await page.getByTestId('plant-import').click();
    const dialog = page.locator('.ant-modal', { hasText: 'Import predicted generation' });
    await dialog.getByTestId('plant-picker').click();
    await clickWhenOpen(page.locator('.ant-select-item-option', { hasText: 'Epsilon Hill Plant' }));
    const fake = join(mkdtempSync(join(tmpdir(), 'plant-list-')), 'forecast.xlsx');
    writeFileSync(fake, 'not a workbook');
    await dialog.locator('input[type=file]').setInputFiles(fake);
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByTestId('import-refusal').filter({ hasText: 'not an .xls or .xlsx workbook' }).waitFor();

    // The generation file just downloaded has the same columns: date, kWh.
    await dialog.locator('input[type=file]').setInputFiles(saved);
    await dialog.getByRole('button', { name: 'Import' }).click();
    await page.getByText(`Prediction imported: ${days.length} days`).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shares a plant with a guest, lists the share, refuses sharing with oneself, and cancels it', async () => {
    const guest = await server.createUser('guest');
    const { page, context, errors } = await openList();
    await row(page, 'Alpha Solar Park').getByTestId('plant-share').click();
    const modal = page.locator('.ant-modal', { hasText: 'Share “Alpha Solar Park”' });
    await modal.waitFor();
    await modal.getByText('Not shared with anyone yet').waitFor();

    // The server's refusal shows beside the account field.
    await modal.getByTestId('share-account').fill(ADMIN.account);
    await modal.getByTestId('share-submit').click();
    await modal.locator('.ant-form-item-explain-error', { hasText: 'You cannot share a plant with yourself.' }).waitFor();

    await modal.getByTestId('share-account').fill(guest.account);
    await modal.getByTestId('share-submit').click();
    await modal.getByTestId('share-users').getByText(guest.account).waitFor();
    const shared = await call<ShareUser[]>(server.app, 'GET', `/api/v1/plant/${ids['Alpha Solar Park']}/getShareUsers`, {
      token: adminToken,
    });
    expect(shared.body.data.map((u) => [u.account, u.role])).toEqual([[guest.account, 'guest']]);

    await modal.getByTestId('share-cancel').click();
    await clickWhenOpen(page.locator('.ant-popconfirm').getByRole('button', { name: 'Stop sharing' }));
    await modal.getByText('Not shared with anyone yet').waitFor();
    const after = await call<ShareUser[]>(server.app, 'GET', `/api/v1/plant/${ids['Alpha Solar Park']}/getShareUsers`, {
      token: adminToken,
    });
    expect(after.body.data).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('transfers a plant to another owner once the password is right', async () => {
    const next = await server.createUser('owner');
    const { page, context, errors } = await openList();
    await row(page, 'Beta Rooftop Array').getByTestId('plant-transfer').click();
    const modal = page.locator('.ant-modal', { hasText: 'Transfer “Beta Rooftop Array”' });
    await modal.getByText('Ownership moves to another account').waitFor();
    await modal.getByTestId('transfer-account').fill(next.account);
    await modal.getByTestId('transfer-password').fill('not-my-password');
    await modal.getByTestId('transfer-submit').click();
    await modal.locator('.ant-form-item-explain-error', { hasText: 'The password is wrong' }).waitFor();

    await modal.getByTestId('transfer-password').fill(ADMIN.password);
    await modal.getByTestId('transfer-submit').click();
    await page.getByText(`Beta Rooftop Array now belongs to ${next.account}`).waitFor();
    await modal.waitFor({ state: 'hidden' });
    const { access_token } = await signIn(server.app, next.account, next.password);
    const detail = await call<{ ownerId: number; access: string }>(server.app, 'GET', `/api/v1/plant/${ids['Beta Rooftop Array']}`, {
      token: access_token,
    });
    expect(detail.body.data).toMatchObject({ ownerId: next.id, access: 'manage' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('deletes a plant only after its name is typed, and the list and counts drop it', async () => {
    const { page, context, errors } = await openList();
    await row(page, 'Zeta Lake Station').waitFor();
    const totalBefore = Number(await count(page, 'total').textContent());
    await row(page, 'Zeta Lake Station').getByTestId('plant-delete').click();
    const modal = page.locator('.ant-modal', { hasText: 'Delete “Zeta Lake Station”?' });
    await modal.getByText('All of this plant’s data will be lost').waitFor();
    const confirm = modal.getByTestId('delete-submit');
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await modal.getByTestId('delete-confirm-name').fill('Zeta Lake');
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await modal.getByTestId('delete-confirm-name').fill('Zeta Lake Station');
    await confirm.click();
    await page.getByText('Zeta Lake Station deleted').waitFor();
    await row(page, 'Zeta Lake Station').waitFor({ state: 'detached' });
    await count(page, 'total')
      .filter({ hasText: String(totalBefore - 1) })
      .waitFor();
    await expect(count(page, 'offline').textContent()).resolves.toBe('0');
    expect((await call(server.app, 'GET', `/api/v1/plant/${ids['Zeta Lake Station']}`, { token: adminToken })).body.code).toBe(700);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('invites a user without plants to create the first one', async () => {
    const owner = await server.createUser('owner');
    const { page, context, errors } = await openList(owner.account, owner.password);
    const empty = page.getByTestId('plant-empty');
    await empty.getByText('No plants yet').waitFor();
    await expect(count(page, 'total').textContent()).resolves.toBe('0');
    await empty.getByRole('button', { name: 'Create your first plant' }).click();
    await page.waitForURL('**/plant-add');
    expect(errors).toEqual([]);
    await context.close();
  });
});
