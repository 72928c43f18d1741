import type { ChannelTree } from '@sunward/contracts/channel';
import { formatEnergy, formatPower } from '@sunward/contracts/units';
import { createPlant } from '@sunward/server/test/api';
import { call, multipartBody, signIn } from '@sunward/server/test/client';
import type { TestServer } from '@sunward/server/test/harness';
import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

/*
 * The channel hierarchy (issue 24) as its users meet it: the maker's administrator adds a distributor on the
 * channel dashboard; the distributor adds an installer; an installer two levels down signs in and sees only
 * its own subtree's plants in the maker's logo and colour; the maker's dashboard counts each subtree exactly
 * as the plant lists of its levels add up.
 */

// A real 1x1 PNG: the browser must be able to show it in the menu.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PASSWORD = 'Channel2024x';

let server: TestServer;
let browser: Browser;

async function ok<T>(token: string, url: string, json?: unknown): Promise<T> {
  const result = await call<T>(server.app, json === undefined ? 'GET' : 'POST', url, { token, json });
  if (result.body.code !== 0) throw new Error(`${url}: ${JSON.stringify(result.body)}`);
  return result.body.data;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('channel hierarchy', () => {
  it('keeps an installer two levels down to its subtree in its maker’s brand; the maker’s dashboard counts every subtree', async () => {
    const { db } = server.database;
    const makerId = await server.createCompany('Sol Maker');
    const makerAdmin = await server.createUser('company_admin', 'maker@sol.test', { companyId: makerId });
    const maker = (await signIn(server.app, makerAdmin.account, makerAdmin.password)).access_token;
    // The maker's brand: a logo and a colour.
    const upload = multipartBody({}, { name: 'logo.png', bytes: PNG });
    const uploaded = await server.app.inject({
      method: 'POST',
      url: '/api/v1/company/uploadLogo',
      headers: { authorization: `Bearer ${maker}`, 'content-type': upload.contentType },
      payload: upload.payload,
    });
    const logoUrl = (uploaded.json() as { data: { url: string } }).data.url;
    await ok(maker, `/api/v1/company/${makerId}/logo`, { logoUrl, iconUrl: null });
    await ok(maker, `/api/v1/company/${makerId}/themeColor`, { themeColor: '#0958D9' });

    // The maker's administrator adds a distributor on the channel dashboard.
    const admin = await openPage(browser, server.url);
    await signInThroughForm(admin.page, makerAdmin.account, makerAdmin.password);
    await admin.page.goto('/enterprise/channel');
    const tree = admin.page.getByTestId('channel-tree');
    await tree.getByText('Sol Maker').waitFor();
    await admin.page.getByTestId('channel-add').click();
    const form = admin.page.getByTestId('channel-form');
    await form.waitFor();
    await admin.page.locator('#channel-name-field').fill('Sol North Distribution');
    await admin.page.locator('#channel-account-field').fill('north@sol.test');
    await admin.page.locator('#channel-nickname-field').fill('North');
    await admin.page.locator('#channel-password-field').fill(PASSWORD);
    await admin.page.locator('#channel-submit').click();
    await form.waitFor({ state: 'detached' });
    await tree.getByText('Sol North Distribution').waitFor();

    // Below it an installer (made by the distributor), and a sibling distributor with its own plant.
    const north = (await signIn(server.app, 'north@sol.test', PASSWORD)).access_token;
    await ok(north, '/api/v1/channel/company', {
      name: 'Sol Roof Installers',
      kind: 'installer',
      adminAccount: 'roof@sol.test',
      adminPassword: PASSWORD,
      adminNickname: 'Roof',
    });
    await ok(maker, '/api/v1/channel/company', {
      name: 'Sol South Distribution',
      kind: 'distributor',
      adminAccount: 'south@sol.test',
      adminPassword: PASSWORD,
      adminNickname: 'South',
    });
    const roof = (await signIn(server.app, 'roof@sol.test', PASSWORD)).access_token;
    const south = (await signIn(server.app, 'south@sol.test', PASSWORD)).access_token;
    const plants: Record<string, number> = {};
    for (const [token, name] of [
      [maker, 'Maker Test Field'],
      [north, 'North Warehouse Roof'],
      [roof, 'Roof Family Home'],
      [roof, 'Roof Bakery'],
      [south, 'South Farm'],
    ] as const)
      plants[name] = (await createPlant(server, token, { name })).id;
    // What the ingest keeps on each plant: power now and today's energy.
    for (const [i, id] of Object.values(plants).entries())
      await db.execute(
        sql`update plants set power_w = ${1200 * (i + 1)}, energy_today_wh = ${8000 * (i + 1)}, status = 1 where id = ${id}`,
      );

    // The installer signs in: only its two plants, in the maker's logo and colour.
    const installer = await openPage(browser, server.url);
    await signInThroughForm(installer.page, 'roof@sol.test', PASSWORD);
    await installer.page.goto('/plants');
    await installer.page.getByTestId('plant-list-page').waitFor();
    await expect
      .poll(async () => (await installer.page.getByTestId('plant-link').allTextContents()).sort(), { timeout: 30_000 })
      .toEqual(['Roof Bakery', 'Roof Family Home']);
    await expect.poll(() => installer.page.locator('.sw-logo img').getAttribute('src')).toBe(logoUrl);
    const selected = installer.page.locator('.ant-menu-item-selected').first();
    await expect.poll(() => selected.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(9, 88, 217)');
    expect(installer.errors).toEqual([]);
    await installer.context.close();

    // The maker's dashboard: each row's counts are what that level's plant list adds up to.
    await admin.page.reload();
    await tree.getByText('Sol Roof Installers').waitFor();
    const answer = await ok<ChannelTree>(maker, '/api/v1/channel/tree');
    for (const [token, company] of [
      [maker, 'Sol Maker'],
      [north, 'Sol North Distribution'],
      [roof, 'Sol Roof Installers'],
      [south, 'Sol South Distribution'],
    ] as const) {
      const list = await ok<{ records: { powerW: number | null; energyTodayWh: number | null }[] }>(token, '/api/v1/plants?size=100');
      const node = answer.nodes.find((n) => n.name === company);
      if (!node) throw new Error(`${company} missing`);
      const row = admin.page.getByTestId(`channel-row-${node.id}`);
      expect(await row.getByTestId('channel-plants').textContent(), company).toBe(String(list.records.length));
      expect(await row.getByTestId('channel-devices').textContent(), company).toBe('0');
      const power = list.records.reduce((s, p) => s + (p.powerW ?? 0), 0);
      const energy = list.records.reduce((s, p) => s + (p.energyTodayWh ?? 0), 0);
      expect(await row.getByTestId('channel-power').textContent(), company).toBe(formatPower(power, 'en'));
      expect(await row.getByTestId('channel-energy').textContent(), company).toBe(formatEnergy(energy, 'en'));
    }
    expect(
      await admin.page
        .getByTestId(`channel-row-${String(answer.nodes[0]?.id)}`)
        .getByTestId('channel-plants')
        .textContent(),
    ).toBe('5');
    expect(await seriousAccessibilityProblems(admin.page)).toEqual([]);
    expect(admin.errors).toEqual([]);
    await admin.context.close();
  }, 240_000);
});
