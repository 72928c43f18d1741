import type { DevicePage } from '@sunward/contracts/devices';
import type { PlantCreate } from '@sunward/contracts/plants';
import type { ProtocolDetail, ProtocolPage } from '@sunward/contracts/protocols';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';
import { noonLongitude, runSimulator } from './support/simulator.js';

// Issue 19: a platform administrator switches a simulated device's protocol from its page: picks another
// brand's map, sees what its latest reading would read differently, confirms with the password.

const SN = 'INSWE00001';
let server: TestServer;
let browser: Browser;
let simulator: ReturnType<typeof runSimulator> | undefined;
let token = '';

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const longitude = noonLongitude();
  await server.registerGateway('GWSWE00001', 'swkey00001');
  const body: PlantCreate = {
    name: 'Switch Home',
    capacityKwp: 5,
    plantType: 1,
    latitude: 5,
    longitude,
    timezone: 'UTC',
    meteringTopology: 'net',
    gateways: [{ sn: 'GWSWE00001', key: 'swkey00001' }],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const plant = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token, json: body });
  if (plant.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(plant.body)}`);

  // Another brand's map of the same registers: power read in kW, no frequency.
  const shipped = await call<ProtocolPage>(server.app, 'GET', '/api/v1/protocols', { token, query: { keyword: 'sunspec-inverter-1p' } });
  const base = shipped.body.data.infos.find((p) => p.identifier === 'sunspec-inverter-1p');
  if (!base) throw new Error('no shipped single-phase map');
  const detail = await call<ProtocolDetail>(server.app, 'GET', `/api/v1/protocols/${base.id}`, { token });
  const content = detail.body.data.content;
  const created = await call<ProtocolDetail>(server.app, 'POST', '/api/v1/protocols', {
    token,
    json: {
      identifier: 'altus-inverter',
      code: 'ALTUS-1P',
      name: 'ALTUS 1P',
      manufacturer: 'Altus',
      family: 'inverter',
      protocolVersion: '2.0',
      configurationVersion: '1',
      content: {
        ...content,
        points: content.points.filter((p) => p.id !== 'Hz').map((p) => (p.id === 'W' ? { ...p, unit: 'kW', scale: 0.001 } : p)),
      },
    },
  });
  if (created.body.code !== 0) throw new Error(JSON.stringify(created.body));

  const fleet: SimulatedFleet = {
    seed: 19,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    gateways: [
      {
        sn: 'GWSWE00001',
        key: 'swkey00001',
        intervalSeconds: 2,
        plant: { name: 'Switch Home', latitude: 5, longitude, timezone: 'UTC', capacityKwp: 5, plantType: 1, load: 'household' },
        devices: [{ sn: SN, protocolId: 'sunspec-inverter-1p', family: 'inverter', ratedPowerW: 5000 }],
      },
    ],
  };
  simulator = runSimulator(fleet);
  await vi.waitFor(
    async () => {
      const page = await call<DevicePage>(server.app, 'GET', '/api/v1/inverters', { token });
      if (!page.body.data?.infos.some((d) => d.sn === SN && d.lastReportAt)) throw new Error('no reading yet');
    },
    { timeout: 60_000, interval: 500 },
  );
});

afterAll(async () => {
  simulator?.stop();
  await browser?.close();
  await server?.close();
});

describe('a device’s protocol switch', () => {
  it('previews what the latest reading would read differently and switches on confirmation', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, `/device/detail/inverter/${SN}`);
    await page.getByTestId('device-change-protocol').click();
    const modal = page.getByRole('dialog', { name: 'Change the protocol of a device' });
    await modal.waitFor();
    expect(await modal.getByLabel('Device SN').inputValue()).toBe(SN);

    // The device's own protocol is refused beside the picker; the candidate shows the differences.
    const pick = async (text: string) => {
      await modal.getByLabel('New protocol').fill(text);
      await clickWhenOpen(page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first());
    };
    await pick('sunspec-inverter-1p');
    await modal.getByText('The device already uses this protocol').waitFor();
    await pick('altus-inverter');
    await modal.getByTestId('switch-preview').waitFor();
    await modal.getByText('Now: INVERTER-1P (sunspec-inverter-1p) v1').waitFor();
    await modal.getByText(/Compared on the latest reading/).waitFor();
    expect(await modal.getByTestId('switch-status-W').textContent()).toBe('Reads differently');
    expect(await modal.getByTestId('switch-status-Hz').textContent()).toBe('Disappears');
    await modal.getByText(/Registers the new protocol does not read: FC3 \d+/).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await modal.getByLabel('Your password').fill(ADMIN.password);
    await modal.getByTestId('switch-confirm').click();
    // Its stored readings come along, point by point.
    await page.getByText(new RegExp(`${SN} now uses altus-inverter v1; [1-9]\\d* stored readings carried over`)).waitFor();
    await modal.waitFor({ state: 'hidden' });

    const after = await call<DevicePage>(server.app, 'GET', '/api/v1/inverters', { token, query: { keyword: SN } });
    expect(after.body.data.infos.find((d) => d.sn === SN)?.protocolId).toBe('altus-inverter');

    // Every device of the protocol back to its first version (after an edit): previewed, then saved as version 3.
    const altus = await call<ProtocolPage>(server.app, 'GET', '/api/v1/protocols', { token, query: { keyword: 'altus-inverter' } });
    const id = altus.body.data.infos[0]?.id ?? 0;
    const current = await call<ProtocolDetail>(server.app, 'GET', `/api/v1/protocols/${id}`, { token });
    const { content, ...fields } = current.body.data;
    const edited = await call<ProtocolDetail>(server.app, 'PUT', `/api/v1/protocols/${id}`, {
      token,
      json: {
        ...fields,
        content: { ...content, points: content.points.map((p) => (p.id === 'W' ? { ...p, unit: 'W', scale: 1 } : p)) },
        baseVersion: 1,
      },
    });
    expect(edited.body.code, JSON.stringify(edited.body)).toBe(0);
    await page.goto(`${server.url}/system/protocols/${id}/history`);
    await page.getByTestId('restore-1').click();
    const restore = page.getByRole('dialog', { name: 'Move every device of ALTUS 1P to v1' });
    await restore.getByTestId('restore-preview').waitFor();
    expect(await restore.getByTestId('switch-status-W').textContent()).toBe('Reads differently');
    await restore.getByText('1 devices decode with this version from their next report on.', { exact: false }).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await restore.getByTestId('restore-confirm').click();
    await page.getByText('Saved as v3: every device of the protocol decodes with it').waitFor();
    expect(errors).toEqual([]);
  }, 90_000);
});
