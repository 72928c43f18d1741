import type { PlantDetail } from '@sunward/contracts/plants';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** The visible form item (label and field) around a test id, for reading its message. */
function itemOf(page: Page, testId: string) {
  return page.locator('.ant-form-item').filter({ has: page.getByTestId(testId) });
}

async function plantAs(token: string, id: number): Promise<PlantDetail> {
  const answer = await call<PlantDetail>(server.app, 'GET', `/api/v1/plant/${id}`, { token });
  return answer.body.data;
}

describe('plant creation wizard', () => {
  it('creates a plant through the three steps, then edits its name on the edit page', async () => {
    await server.registerGateway('GWE2E0001', 'rightkey42');
    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/plant-add');
    await page.locator('[data-testid=page-title]:visible', { hasText: 'Create a plant' }).waitFor();

    // Step 1: a wrong key is refused beside the key field; the right one is checked OK.
    const next = page.getByTestId('wizard-next');
    expect(await next.isDisabled()).toBe(true);
    await page.getByTestId('gateway-sn').fill('GWE2E0001');
    await page.getByTestId('gateway-key').fill('wrongkey');
    await page.getByTestId('gateway-check').click();
    await itemOf(page, 'gateway-key').getByText('The gateway serial number or registration key is wrong.').waitFor();
    await page.getByTestId('gateway-key').fill('rightkey42');
    await page.getByTestId('gateway-check').click();
    await page.getByTestId('gateway-check-ok').filter({ hasText: 'Devices: 0' }).waitFor();
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('[data-testid=wizard-next]')?.disabled);
    await next.click();

    // Step 2: time-of-use; a last period that stops before 24:00 is shown, then fixed.
    const revenue = page.getByTestId('wizard-step-revenue');
    await revenue.waitFor();
    await revenue.getByText('Time-of-use').click();
    await page.getByTestId('tou-row-0').waitFor();
    await page.getByTestId('tou-row-0').getByTestId('tou-end').fill('08:00');
    await page.keyboard.press('Escape');
    await page.getByTestId('tou-row-0').getByTestId('tou-price').fill('0.12');
    // A first period ending at 08:00 leaves the day open: the server's own rule says so.
    await page.getByTestId('tou-problem').filter({ hasText: 'Period 1: the last period ends at 24:00' }).waitFor();
    await page.getByTestId('tou-add').click();
    await page.getByTestId('tou-row-1').waitFor();
    // The new period starts where the first ends.
    expect(await page.getByTestId('tou-row-1').getByTestId('tou-start').inputValue()).toBe('08:00');
    await page.getByTestId('tou-row-1').getByTestId('tou-end').fill('22:00');
    await page.keyboard.press('Escape');
    await page.getByTestId('tou-row-1').getByTestId('tou-price').fill('0.3');
    await page.getByTestId('tou-problem').filter({ hasText: 'Period 2: the last period ends at 24:00' }).waitFor();
    await page.getByTestId('tou-row-1').getByTestId('tou-end').fill('24:00');
    await page.keyboard.press('Escape');
    await page.getByTestId('tou-problem').waitFor({ state: 'detached' });
    await page.getByTestId('tariff-investment').fill('85000');
    await next.click();

    // Step 3: the address search finds Berlin offline and fills the coordinates and region.
    const location = page.getByTestId('wizard-step-location');
    await location.waitFor();
    await page.getByTestId('address-search').fill('Berlin');
    await page.getByTestId('place-option').filter({ hasText: 'Berlin' }).first().click();
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-testid=latitude]')?.value === '52.52');
    expect(await page.getByTestId('longitude').inputValue()).toBe('13.405');
    expect(await page.getByTestId('region').inputValue()).toBe('Germany');
    await page.getByTestId('location-map').and(page.locator('[data-latitude="52.52"]')).waitFor();
    await location.getByText('Suggested for Berlin').waitFor();

    // A name that is too short is refused as it is typed; a good one clears the message.
    await page.getByTestId('plant-name').fill('Abc');
    await itemOf(page, 'plant-name').getByText('5 to 32 characters, no special characters').waitFor();
    await page.getByTestId('plant-name').fill('Berlin Rooftop One');
    await itemOf(page, 'plant-name').getByText('5 to 32 characters, no special characters').waitFor({ state: 'detached' });
    await page.getByTestId('plant-capacity').fill('120.5');
    await page.getByTestId('wizard-submit').click();

    await page.waitForURL(/\/plants\/overview\/\d+\/1$/);
    await page.getByText('Plant “Berlin Rooftop One” created.').waitFor();
    const id = Number(new URL(page.url()).pathname.split('/')[3]);
    const token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
    const created = await plantAs(token, id);
    expect(created).toMatchObject({
      name: 'Berlin Rooftop One',
      capacityKwp: 120.5,
      latitude: 52.52,
      longitude: 13.405,
      region: 'Germany',
    });
    expect(created.tariff).toEqual({
      currency: 'EUR',
      pricingMethod: 'tou',
      segments: [
        { start: '00:00', end: '08:00', price: 0.12 },
        { start: '08:00', end: '24:00', price: 0.3 },
      ],
      totalInvestment: 85000,
    });

    // Edit page: change the name, save, reload, and it stays.
    await page.goto(`/plants/edit/${id}`);
    const name = page.locator('[data-testid=plant-name]:visible');
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('[data-cached-page] [data-testid=plant-name]')?.value === 'Berlin Rooftop One',
    );
    await name.fill('Berlin Rooftop Renamed');
    await page.locator('[data-testid=plant-save]:visible').click();
    await page.getByText('Saved.').waitFor();
    await page.reload();
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('[data-cached-page] [data-testid=plant-name]')?.value === 'Berlin Rooftop Renamed',
    );
    expect((await plantAs(token, id)).name).toBe('Berlin Rooftop Renamed');

    // The gateway bound by the wizard is listed on the Gateways tab.
    await page.getByRole('tab', { name: 'Gateways' }).click();
    await page.getByTestId('plant-gateways').getByText('GWE2E0001').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('takes the user back to the gateway step when the gateway was bound elsewhere meanwhile', async () => {
    await server.registerGateway('GWE2E0003', 'thirdkey9');
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/plant-add');
    await page.getByTestId('gateway-sn').fill('GWE2E0003');
    await page.getByTestId('gateway-key').fill('thirdkey9');
    await page.getByTestId('gateway-check').click();
    await page.getByTestId('gateway-check-ok').waitFor();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('tariff-price').fill('0.2');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('address-search').fill('Madrid');
    await page.getByTestId('place-option').filter({ hasText: 'Madrid' }).first().click();
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-testid=latitude]')?.value === '40.4168');
    await page.getByTestId('plant-name').fill('Madrid Solar Park');
    await page.getByTestId('plant-capacity').fill('500');

    // Someone else binds the gateway before the user submits.
    const other = await server.createUser('owner');
    const otherToken = (await signIn(server.app, other.account, other.password)).access_token;
    const taken = await call(server.app, 'POST', '/api/v1/plant', {
      token: otherToken,
      json: {
        name: 'Other Plant',
        capacityKwp: 5,
        plantType: 1,
        latitude: 40,
        longitude: -3,
        timezone: 'Europe/Madrid',
        meteringTopology: 'gross',
        gateways: [{ sn: 'GWE2E0003', key: 'thirdkey9' }],
        tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
      },
    });
    expect(taken.body.code).toBe(0);

    await page.getByTestId('wizard-submit').click();
    await page.getByTestId('wizard-step-devices').waitFor();
    await page.getByTestId('wizard-notice').filter({ hasText: 'This gateway is already in use.' }).waitFor();
    await itemOf(page, 'gateway-sn').getByText('This gateway is already in use.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/plant-add');
    await context.close();
  });

  it('keeps a plant in Asia/Kolkata when it is edited, and offers every IANA name in the time-zone picker', async () => {
    await server.registerGateway('GWE2E0004', 'fourthkey4');
    const token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
    const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', {
      token,
      json: {
        name: 'Delhi Cold Store',
        capacityKwp: 50,
        plantType: 1,
        latitude: 28.61,
        longitude: 77.21,
        timezone: 'Asia/Kolkata',
        meteringTopology: 'gross',
        gateways: [{ sn: 'GWE2E0004', key: 'fourthkey4' }],
        tariff: { currency: 'INR', pricingMethod: 'constant', price: 7 },
      },
    });
    expect(created.body.code).toBe(0);
    const id = created.body.data.id;

    const { page, context, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, `/plants/edit/${id}`);
    const zone = page.locator('[data-cached-page] [data-testid=timezone]:visible');
    // The picker shows the saved name (an older console rewrote it to ICU's Asia/Calcutta).
    await zone.getByText('(UTC+05:30) Asia/Kolkata').waitFor();
    await page.locator('[data-testid=plant-name]:visible').fill('Delhi Cold Store 2');
    await page.locator('[data-testid=plant-save]:visible').click();
    await page.getByText('Saved.').waitFor();
    expect(await plantAs(token, id)).toMatchObject({ name: 'Delhi Cold Store 2', timezone: 'Asia/Kolkata' });

    // A three-part IANA name is offered and stored as chosen.
    await zone.click();
    await page.keyboard.type('Argentina/Buenos');
    await clickWhenOpen(
      page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'America/Argentina/Buenos_Aires' }),
    );
    await page.locator('[data-testid=plant-save]:visible').click();
    await expect.poll(async () => (await plantAs(token, id)).timezone).toBe('America/Argentina/Buenos_Aires');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a shared plant read-only, with a notice and nothing to save', async () => {
    await server.registerGateway('GWE2E0002', 'anotherkey7');
    const owner = await server.createUser('owner');
    const ownerToken = (await signIn(server.app, owner.account, owner.password)).access_token;
    const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', {
      token: ownerToken,
      json: {
        name: 'Shared Meadow',
        capacityKwp: 10,
        plantType: 1,
        latitude: 48.1,
        longitude: 11.6,
        timezone: 'Europe/Berlin',
        meteringTopology: 'gross',
        gateways: [{ sn: 'GWE2E0002', key: 'anotherkey7' }],
        tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
      },
    });
    expect(created.body.code).toBe(0);
    const id = created.body.data.id;
    const guest = await server.createUser('guest');
    const shared = await call(server.app, 'POST', `/api/v1/plant/${id}/share`, {
      token: ownerToken,
      json: { account: guest.account, role: 'guest' },
    });
    expect(shared.body.code).toBe(0);

    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, guest.account, guest.password, `/plants/edit/${id}`);
    await page.getByTestId('plant-read-only').waitFor();
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-testid=plant-name]')?.disabled === true);
    expect(await page.getByTestId('plant-save').count()).toBe(0);
    await context.close();
  });
});
