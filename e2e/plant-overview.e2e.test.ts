import type { PlantCreate } from '@sunward/contracts/plants';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';
import { noonLongitude, runSimulator } from './support/simulator.js';

const ZONE = 'Africa/Abidjan';

let server: TestServer;
let browser: Browser;
let simulator: ReturnType<typeof runSimulator> | undefined;
const ids: { storage: number; grid: number } = { storage: 0, grid: 0 };

async function createPlant(token: string, name: string, plantType: 1 | 3, sn: string, key: string, longitude: number) {
  await server.registerGateway(sn, key);
  const body: PlantCreate = {
    name,
    capacityKwp: 10,
    plantType,
    latitude: 5,
    longitude,
    timezone: ZONE,
    meteringTopology: 'net',
    gateways: [{ sn, key }],
    tariff: { currency: 'EUR', pricingMethod: 'generation', feedInPrice: 0.08, selfUsePrice: 0.3, totalInvestment: 9000 },
  };
  const result = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token, json: body });
  if (result.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(result.body)}`);
  return result.body.data.id;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const longitude = noonLongitude();
  ids.storage = await createPlant(token, 'Equator Storage Home', 3, 'GWOVE00001', 'ovkey00001', longitude);
  ids.grid = await createPlant(token, 'Equator Grid Roof', 1, 'GWOVE00002', 'ovkey00002', longitude);

  // The simulator plays both gateways over MQTT every two seconds; the server discovers their devices.
  const site = { latitude: 5, longitude, timezone: ZONE, capacityKwp: 10, load: 'household' as const };
  const fleet: SimulatedFleet = {
    seed: 7,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    gateways: [
      {
        sn: 'GWOVE00001',
        key: 'ovkey00001',
        intervalSeconds: 2,
        plant: { ...site, name: 'Equator Storage Home', plantType: 3 },
        devices: [
          { sn: 'HYOVE00001', protocolId: 'sunspec-hybrid-lv', family: 'hybrid_inverter', ratedPowerW: 10_000 },
          { sn: 'BTOVE00001', protocolId: 'sunspec-battery-bms', family: 'battery', capacityKwh: 12 },
          { sn: 'MTOVE00001', protocolId: 'sunspec-meter-3p', family: 'meter' },
          { sn: 'WSOVE00001', protocolId: 'sunspec-weather-station', family: 'weather_station' },
        ],
      },
      {
        sn: 'GWOVE00002',
        key: 'ovkey00002',
        intervalSeconds: 2,
        plant: { ...site, name: 'Equator Grid Roof', plantType: 1 },
        devices: [{ sn: 'INOVE00001', protocolId: 'sunspec-inverter-1p', family: 'inverter', ratedPowerW: 10_000 }],
      },
    ],
  };
  simulator = runSimulator(fleet);
  // Ready when both plants have today's energy from at least two reports of their counters.
  await vi.waitFor(
    async () => {
      const answers = await Promise.all(
        [ids.storage, ids.grid].map((id) => call<{ energyTodayWh: number }>(server.app, 'GET', `/api/v1/plant/${id}/realtime`, { token })),
      );
      if (!answers.every((a) => a.body.code === 0 && a.body.data.energyTodayWh > 0)) throw new Error('no energy reported yet');
    },
    { timeout: 60_000, interval: 1000 },
  );
});

afterAll(async () => {
  simulator?.stop();
  await browser?.close();
  await server?.close();
});

async function openOverview(path: string) {
  const opened = await openPage(browser, server.url);
  const liveRequests: string[] = [];
  opened.page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/v1/live') liveRequests.push(request.url());
  });
  await signInThroughForm(opened.page, ADMIN.account, ADMIN.password);
  await opened.page.goto(path);
  return { ...opened, liveRequests };
}

const text = (page: Page, testId: string) => page.getByTestId(testId).first().textContent();

describe('plant overview', () => {
  it('shows live power in the energy flow, with battery state, and refreshes it as reports are pushed', async () => {
    const { page, errors, liveRequests, context } = await openOverview(`/plants/overview/${ids.storage}/3`);
    await page.getByTestId('plant-overview-page').waitFor();
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Equator Storage Home');

    // Non-empty numbers: PV producing, grid and battery with a state, the home consuming.
    await expect.poll(() => text(page, 'flow-pv-power')).toMatch(/[1-9]/);
    expect(await text(page, 'flow-pv-power')).toMatch(/\d\s?(W|kW)$/);
    expect(await text(page, 'flow-grid-power')).toMatch(/\d\s?(W|kW)$/);
    expect(await text(page, 'flow-load-power')).toMatch(/\d\s?(W|kW)$/);
    expect(await text(page, 'flow-battery-power')).toMatch(/\d\s?(W|kW)$/);
    expect(await page.getByTestId('flow-node-battery').textContent()).toMatch(/Battery \d+ %/);
    expect(await page.getByTestId('flow-node-battery').textContent()).toMatch(/Charging|Discharging|Idle/);
    expect(await page.getByTestId('flow-line-pv').getAttribute('data-direction')).toBe('in');
    expect(['in', 'out', 'none']).toContain(await page.getByTestId('flow-line-grid').getAttribute('data-direction'));

    // The figures beside it.
    await expect.poll(() => text(page, 'kpi-power')).toMatch(/[1-9]/);
    await expect.poll(() => text(page, 'kpi-today')).toMatch(/[1-9]/);
    expect(await text(page, 'kpi-total')).toMatch(/\d/);
    await expect.poll(() => text(page, 'weather-temperature')).toMatch(/\d\s?°C/);
    await expect.poll(() => text(page, 'benefit-co2')).toMatch(/\d/);
    await expect.poll(() => text(page, 'income-today')).toMatch(/€/);
    await page.getByTestId('power-chart').locator('canvas').first().waitFor();
    await page.getByTestId('generation-chart').locator('canvas').first().waitFor();
    await expect.poll(() => page.getByTestId('device-status-normal').textContent()).toMatch(/\d/);
    await page.getByTestId('inverter-table').getByText('HYOVE00001').waitFor();

    // The page holds the live stream and follows pushed reports well before its one-minute fallback poll.
    expect(liveRequests.length).toBeGreaterThan(0);
    const before = await page.getByTestId('flow-diagram').getAttribute('aria-label');
    await expect.poll(() => page.getByTestId('flow-diagram').getAttribute('aria-label')).not.toBe(before);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('draws a plant without a battery or meter with the battery left out and the grid not measured', async () => {
    const { page, errors, context } = await openOverview(`/plants/overview/${ids.grid}/1`);
    await expect.poll(() => text(page, 'flow-pv-power')).toMatch(/[1-9]/);
    expect(await page.getByTestId('flow-node-battery').count()).toBe(0);
    expect(await text(page, 'flow-grid-power')).toBe('--');
    expect(await page.getByTestId('split-card').count()).toBe(0);
    await page.getByTestId('weather-none').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the last days as energy bars from the quick ranges', async () => {
    const { page, errors, context } = await openOverview(`/plants/overview/${ids.storage}/3`);
    await page.getByTestId('power-chart-quick').getByText('7 days').click();
    await page.getByTestId('power-chart').locator('canvas').first().waitFor();
    await expect.poll(() => text(page, 'power-chart-summary')).toMatch(/Measured \d/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says calmly that a plant does not exist or is not the user’s', async () => {
    const { page, errors, context } = await openOverview('/plants/overview/999999/1');
    await page.getByTestId('overview-not-found').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('compares the two plants’ specific yield in one chart', async () => {
    const { page, errors, context } = await openOverview(`/plants/compare?ids=${ids.storage},${ids.grid}`);
    await page.getByTestId('plant-compare-page').waitFor();
    await page.getByTestId('compare-chart').locator('canvas').first().waitFor();
    await expect.poll(() => page.locator('.sw-cmp-table').textContent()).toContain('Equator Grid Roof');
    expect(errors).toEqual([]);
    await context.close();
  });
});
