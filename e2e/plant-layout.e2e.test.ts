import type { LayoutLive } from '@sunward/contracts/plant-layout';
import type { PlantCreate } from '@sunward/contracts/plants';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';
import { noonLongitude, runSimulator } from './support/simulator.js';

const ZONE = 'Africa/Abidjan';
/** A 24-panel roof, an optimizer under each panel. */
const OPTIMIZERS = Array.from({ length: 24 }, (_, i) => `OPLAY${String(i + 1).padStart(5, '0')}`);
const SHADED = 'OPLAY00004';
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;

let server: TestServer;
let browser: Browser;
let simulator: ReturnType<typeof runSimulator> | undefined;
let plantId = 0;
let token = '';

beforeAll(async () => {
  // The simulator reports every 2 s: a loaded machine can hold a report back past 3 intervals, and an optimizer
  // then counted offline (0 W) would break the tree's sum until it reports again.
  [server, browser] = await Promise.all([startProduct({ OFFLINE_AFTER_INTERVALS: '15' }), launchBrowser()]);
  token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const longitude = noonLongitude();
  await server.registerGateway('GWLAY00001', 'laykey0001');
  const body: PlantCreate = {
    name: 'Layout Roof',
    capacityKwp: 10.8,
    plantType: 1,
    latitude: 5,
    longitude,
    timezone: ZONE,
    meteringTopology: 'net',
    gateways: [{ sn: 'GWLAY00001', key: 'laykey0001' }],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token, json: body });
  plantId = created.body.data.id;
  // One inverter and an optimizer under each of 24 panels; the fourth panel is shaded and loses 45 % of its light.
  const fleet: SimulatedFleet = {
    seed: 11,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    gateways: [
      {
        sn: 'GWLAY00001',
        key: 'laykey0001',
        intervalSeconds: 2,
        plant: { name: 'Layout Roof', latitude: 5, longitude, timezone: ZONE, capacityKwp: 10.8, plantType: 1, load: 'household' },
        devices: [
          { sn: 'INLAY00001', protocolId: 'sunspec-inverter-1p', family: 'inverter', ratedPowerW: 12000 },
          ...OPTIMIZERS.map((sn) => ({
            sn,
            protocolId: 'sunspec-optimizer',
            family: 'optimizer',
            ratedPowerW: 450,
            ...(sn === SHADED ? { shading: 0.45 } : {}),
          })),
        ],
      },
    ],
  };
  simulator = runSimulator(fleet);
  await vi.waitFor(
    async () => {
      const live = await call<LayoutLive>(server.app, 'GET', `/api/v1/plant/${plantId}/physical/layout/live`, { token });
      const powers = OPTIMIZERS.map((sn) => live.body.data?.power?.[sn] ?? 0);
      if (!powers.every((w) => w > 0)) throw new Error('optimizers not reporting yet');
    },
    { timeout: 90_000, interval: 1000 },
  );
});

afterAll(async () => {
  simulator?.stop();
  await browser?.close();
  await server?.close();
});

const panels = (page: Page) => page.locator('[data-testid="physical-editor"] [data-panel]');

async function centre(page: Page, index: number) {
  // The 2000-unit roof is wider than the window: bring the panel into view first.
  await panels(page).nth(index).scrollIntoViewIfNeeded();
  const box = await panels(page).nth(index).locator('rect').boundingBox();
  if (!box) throw new Error(`panel ${index} not drawn`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function rectOf(page: Page, index: number) {
  const rect = panels(page).nth(index).locator('rect');
  return { x: Number(await rect.getAttribute('x')), y: Number(await rect.getAttribute('y')), w: Number(await rect.getAttribute('width')) };
}

/** Click the first panel, shift-click the others. */
async function selectPanels(page: Page, indexes: number[]) {
  for (const [n, index] of indexes.entries()) {
    const c = await centre(page, index);
    if (n === 1) await page.keyboard.down('Shift');
    await page.mouse.click(c.x, c.y);
  }
  await page.keyboard.up('Shift');
}

async function shot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

describe('plant layout', () => {
  it('builds a 24-panel roof with drag, multi-select, align and undo, saves it, finds the shaded panel by its colour, adds up the tree and refuses the 100th panel', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, `/plants/overview/${plantId}/1`);
    await page.getByTestId('overview-layout').click();
    await page.getByTestId('plant-layout-page').waitFor();
    await page.getByRole('tab', { name: 'Physical editor' }).click();
    await page.getByTestId('physical-editor').waitFor();

    // A group, then 24 panels: each lands on a free place of the grid.
    await page.getByTestId('add-group').click();
    for (let i = 0; i < OPTIMIZERS.length; i++) await page.getByTestId('add-panel').click();
    await expect.poll(() => panels(page).count()).toBe(OPTIMIZERS.length);
    expect(await page.getByTestId('panel-count').textContent()).toContain('24 of 99 panels');

    // Drag the last panel to a second row: it snaps to the grid.
    const before = await rectOf(page, 5);
    const from = await centre(page, 5);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x - 100, from.y + 70, { steps: 8 });
    await page.mouse.move(from.x - 205, from.y + 125, { steps: 8 });
    await page.mouse.up();
    const after = await rectOf(page, 5);
    expect(after.y).toBeGreaterThan(before.y);
    expect((after.x - 1) % 20).toBe(0);
    expect((after.y - 1) % 20).toBe(0);

    // Shift-click two panels; then a box around the first three.
    const p0 = await centre(page, 0);
    const p1 = await centre(page, 1);
    await page.mouse.click(p0.x, p0.y);
    await page.keyboard.down('Shift');
    await page.mouse.click(p1.x, p1.y);
    await page.keyboard.up('Shift');
    expect(await page.getByTestId('panel-count').textContent()).toContain('2 selected');
    const first = await panels(page).nth(0).locator('rect').boundingBox();
    const third = await panels(page).nth(2).locator('rect').boundingBox();
    if (!first || !third) throw new Error('panels not drawn');
    await page.mouse.move(first.x - 10, first.y - 10);
    await page.mouse.down();
    await page.mouse.move(third.x + third.width - 8, third.y + third.height + 8, { steps: 6 });
    await page.mouse.up();
    expect(await page.getByTestId('panel-count').textContent()).toContain('3 selected');

    // Rotate the three to landscape, and undo it.
    const width = (await rectOf(page, 0)).w;
    await page.getByTestId('rotate').click();
    expect((await rectOf(page, 0)).w).toBeGreaterThan(width);
    await page.getByTestId('undo').click();
    expect((await rectOf(page, 0)).w).toBe(width);

    // Align and distribute a selection of three (two in the first row, the dragged one below), then undo both.
    const [r3, r4, r5] = [await rectOf(page, 3), await rectOf(page, 4), await rectOf(page, 5)];
    await selectPanels(page, [3, 4, 5]);
    expect(await page.getByTestId('panel-count').textContent()).toContain('3 selected');
    await page.getByRole('button', { name: 'Align bottom' }).click();
    expect([(await rectOf(page, 3)).y, (await rectOf(page, 4)).y, (await rectOf(page, 5)).y]).toEqual([r5.y, r5.y, r5.y]);
    // Spread evenly: the leftmost (5) and rightmost (4) stay, 3 moves to the middle of the gap.
    await page.getByRole('button', { name: 'Distribute horizontally' }).click();
    const spread = [await rectOf(page, 5), await rectOf(page, 3), await rectOf(page, 4)];
    expect([spread[0]?.x, spread[2]?.x]).toEqual([r5.x, r4.x]);
    expect((spread[1]?.x ?? 0) - (spread[0]?.x ?? 0)).toBe((spread[2]?.x ?? 0) - (spread[1]?.x ?? 0));
    expect(spread[1]?.x).not.toBe(r3.x);
    await page.getByRole('button', { name: 'Align left' }).click();
    expect(new Set([(await rectOf(page, 3)).x, (await rectOf(page, 4)).x, (await rectOf(page, 5)).x])).toEqual(new Set([r5.x]));
    for (let i = 0; i < 3; i++) await page.getByTestId('undo').click();
    expect([await rectOf(page, 3), await rectOf(page, 4), await rectOf(page, 5)]).toEqual([r3, r4, r5]);

    // Keyboard: the selected panel moves one grid step down.
    const p2 = await centre(page, 2);
    await page.mouse.click(p2.x, p2.y);
    const y2 = (await rectOf(page, 2)).y;
    await page.getByTestId('roof-canvas').focus();
    await page.keyboard.press('ArrowDown');
    expect((await rectOf(page, 2)).y).toBe(y2 + 20);

    // Bind each panel to its optimizer.
    for (let i = 0; i < OPTIMIZERS.length; i++) {
      const c = await centre(page, i);
      await page.mouse.click(c.x, c.y);
      await page.getByTestId('panel-card').getByRole('combobox').click();
      // The list is virtual (a few rows drawn): typing the serial number brings its row into view.
      await page.keyboard.type(OPTIMIZERS[i] ?? '');
      await clickWhenOpen(page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${OPTIMIZERS[i]}"]`));
      await expect.poll(() => panels(page).nth(i).getAttribute('data-optimizer')).toBe(OPTIMIZERS[i]);
    }
    await shot(page, 'layout-editor');

    // Leaving with unsaved changes asks.
    await page.getByTestId('layout-back').click();
    await clickWhenOpen(page.getByRole('button', { name: 'Stay' }));
    expect(new URL(page.url()).pathname).toBe(`/plants/layout/${plantId}`);

    await page.getByTestId('save-layout').click();
    await page.getByText('Layout saved (version 1)').waitFor();

    // Reload: the saved roof comes back.
    await page.reload();
    await page.getByRole('tab', { name: 'Physical editor' }).click();
    await expect.poll(() => panels(page).count()).toBe(OPTIMIZERS.length);
    expect(await panels(page).evaluateAll((gs) => gs.map((g) => g.getAttribute('data-optimizer')))).toEqual(OPTIMIZERS);
    expect((await rectOf(page, 2)).y).toBe(y2 + 20);

    // Live: each panel in its optimizer's colour; the shaded one is in a lower band than all others.
    await page.getByRole('tab', { name: 'Live view' }).click();
    await page.getByTestId('heat-legend').waitFor();
    const band = (value: string | null) => (value === null || value === '' ? -1 : Number(value));
    await expect
      .poll(
        async () => {
          const fills = await page
            .locator('[data-testid="live-view"] [data-panel]')
            .evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-optimizer'), g.getAttribute('data-band')] as const));
          const shaded = fills.find(([sn]) => sn === SHADED);
          const others = fills.filter(([sn]) => sn !== SHADED).map(([, fill]) => band(fill));
          return shaded !== undefined && others.every((b) => b >= 0) && band(shaded[1]) >= 0 && band(shaded[1]) < Math.min(...others);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    // A click on the shaded panel shows its power over the day.
    await page.locator(`[data-testid="live-view"] [data-optimizer="${SHADED}"]`).dispatchEvent('click');
    expect(await page.getByTestId('picked-panel').textContent()).toContain(SHADED);
    await page.getByTestId('panel-curve').locator('canvas').waitFor();
    // The time slider goes back over the day.
    const slider = page.getByRole('slider');
    await slider.focus();
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByTestId('slider-time').textContent()).toMatch(/\d{2}:\d{2}/);
    await page.keyboard.press('End');
    await shot(page, 'layout-live');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // Logical: inverter, string, optimizers and panels with their efficiency.
    await page.getByRole('tab', { name: 'Logical view' }).click();
    await page.getByTestId('node-inverter:INLAY00001').waitFor();
    await expect
      .poll(async () => {
        const eff = async (sn: string) => Number(await page.getByTestId(`node-optimizer:${sn}`).getAttribute('data-efficiency'));
        return (await eff(SHADED)) < (await eff('OPLAY00001'));
      })
      .toBe(true);
    // The tree adds up: the optimizers under the inverter (every panel has one) give its power within 1 %, and the
    // inverter's children (its string, nothing left over as "other") sum to it as well.
    const value = async (testId: string) => Number(await page.getByTestId(testId).getAttribute('data-value'));
    await expect
      .poll(
        async () => {
          const inverter = await value('node-inverter:INLAY00001');
          const optimizers = await page
            .locator('[data-testid^="node-optimizer:"]')
            .evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-value'))));
          const strings = await page
            .locator('[data-testid^="node-string:"], [data-testid^="node-other:"]')
            .evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-value'))));
          const within = (total: number) => inverter > 0 && Math.abs(total - inverter) <= inverter * 0.01;
          const optimizerSum = optimizers.reduce((a, v) => a + v, 0);
          const stringSum = strings.reduce((a, v) => a + v, 0);
          // On a miss the figures themselves are the message.
          return optimizers.length === OPTIMIZERS.length && within(optimizerSum) && within(stringSum)
            ? 'adds up'
            : JSON.stringify({ inverter, optimizerSum, optimizers: optimizers.length, stringSum, strings: strings.length });
        },
        // The tree refetches every 10 s; a loaded machine (CI at load 11) can hold reports back past one refetch or
        // more, and the devices' latest rows then come from different reports: wait for a tree of one report.
        { timeout: 150_000, interval: 2_000 },
      )
      .toBe('adds up');
    await shot(page, 'layout-logical');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // A public link opens the roof without an account, until it is revoked.
    await page.getByTestId('share-open').click();
    await page.getByTestId('share-create').click();
    const url = (await page.getByTestId('share-url').textContent())?.trim() ?? '';
    expect(url).toContain('/plantLayout?token=');
    const visitor = await openPage(browser, server.url);
    await visitor.page.goto(url.replace(/^https?:\/\/[^/]+/, ''));
    // A fresh browser loads the console and the roof's whole day: at CI's load (11-13 on 2 cores) that took over 30 s.
    await visitor.page.getByTestId('live-view').waitFor({ timeout: 90_000 });
    await expect.poll(() => visitor.page.locator('[data-panel]').count()).toBe(OPTIMIZERS.length);
    await shot(visitor.page, 'layout-public');
    expect(await seriousAccessibilityProblems(visitor.page)).toEqual([]);
    await page.getByTestId('share-revoke').click();
    await expect.poll(() => page.getByTestId('share-revoke').count()).toBe(0);
    await visitor.page.reload();
    await visitor.page.getByTestId('link-invalid').waitFor();
    await visitor.context.close();

    // At most 99 panels: the 100th is refused with a message and the layout keeps 99.
    await page.getByTestId('share-open').click();
    await page.getByText('No public link.', { exact: false }).waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: 'Physical editor' }).click();
    await expect.poll(() => panels(page).count()).toBe(OPTIMIZERS.length);
    for (let i = OPTIMIZERS.length; i < 99; i++) await page.getByTestId('add-panel').click();
    await expect.poll(() => panels(page).count()).toBe(99);
    expect(await page.getByTestId('panel-count').textContent()).toContain('99 of 99 panels');
    await page.getByTestId('add-panel').click();
    await page.getByText('A layout holds at most 99 panels.').waitFor();
    expect(await panels(page).count()).toBe(99);

    expect(errors).toEqual([]);
    expect(visitor.errors).toEqual([]);
    await context.close();
    // 70 s on a quiet machine; 257 s to the public link's step in a CI run at load 11 on two cores.
  }, 600_000);
});
