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
const OPTIMIZERS = Array.from({ length: 6 }, (_, i) => `OPLAY0000${i + 1}`);
const SHADED = 'OPLAY00004';
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;

let server: TestServer;
let browser: Browser;
let simulator: ReturnType<typeof runSimulator> | undefined;
let plantId = 0;
let token = '';

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const longitude = noonLongitude();
  await server.registerGateway('GWLAY00001', 'laykey0001');
  const body: PlantCreate = {
    name: 'Layout Roof',
    capacityKwp: 2.7,
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
  // One inverter and an optimizer per panel; the fourth panel is shaded and loses 45 % of its light.
  const fleet: SimulatedFleet = {
    seed: 11,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    gateways: [
      {
        sn: 'GWLAY00001',
        key: 'laykey0001',
        intervalSeconds: 2,
        plant: { name: 'Layout Roof', latitude: 5, longitude, timezone: ZONE, capacityKwp: 2.7, plantType: 1, load: 'household' },
        devices: [
          { sn: 'INLAY00001', protocolId: 'sunspec-inverter-1p', family: 'inverter', ratedPowerW: 3000 },
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
  const box = await panels(page).nth(index).locator('rect').boundingBox();
  if (!box) throw new Error(`panel ${index} not drawn`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function rectOf(page: Page, index: number) {
  const rect = panels(page).nth(index).locator('rect');
  return { x: Number(await rect.getAttribute('x')), y: Number(await rect.getAttribute('y')), w: Number(await rect.getAttribute('width')) };
}

async function shot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

describe('plant layout', () => {
  it('builds a roof with drag, multi-select and undo, saves it, and shows the shaded panel by its colour', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    await page.goto(`/plants/overview/${plantId}/1`);
    await page.getByTestId('overview-layout').click();
    await page.getByTestId('plant-layout-page').waitFor();
    await page.getByRole('tab', { name: 'Physical editor' }).click();
    await page.getByTestId('physical-editor').waitFor();

    // A group, then six panels: each lands on a free place of the grid.
    await page.getByTestId('add-group').click();
    for (let i = 0; i < OPTIMIZERS.length; i++) await page.getByTestId('add-panel').click();
    await expect.poll(() => panels(page).count()).toBe(6);
    expect(await page.getByTestId('panel-count').textContent()).toContain('6 of 99 panels');

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
      await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${OPTIMIZERS[i]}"]`).click();
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
    await expect.poll(() => panels(page).count()).toBe(6);
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
    await shot(page, 'layout-logical');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // A public link opens the roof without an account, until it is revoked.
    await page.getByTestId('share-open').click();
    await page.getByTestId('share-create').click();
    const url = (await page.getByTestId('share-url').textContent())?.trim() ?? '';
    expect(url).toContain('/plantLayout?token=');
    const visitor = await openPage(browser, server.url);
    await visitor.page.goto(url.replace(/^https?:\/\/[^/]+/, ''));
    await visitor.page.getByTestId('live-view').waitFor();
    await expect.poll(() => visitor.page.locator('[data-panel]').count()).toBe(6);
    await shot(visitor.page, 'layout-public');
    expect(await seriousAccessibilityProblems(visitor.page)).toEqual([]);
    await page.getByTestId('share-revoke').click();
    await expect.poll(() => page.getByTestId('share-revoke').count()).toBe(0);
    await visitor.page.reload();
    await visitor.page.getByTestId('link-invalid').waitFor();
    await visitor.context.close();

    expect(errors).toEqual([]);
    expect(visitor.errors).toEqual([]);
    await context.close();
  });
});
