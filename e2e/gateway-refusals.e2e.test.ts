import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import { LANGUAGE_NAMES } from '@sunward/contracts/languages';
import type { TestServer } from '@sunward/server/test/harness';
import mqtt from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

// Issue 25: what the server refused from a gateway, and why, on the gateway list.
let server: TestServer;
let browser: Browser;
let user: { account: string; password: string };
const SN = 'GWREFUSE2E1';
const KEY = '5c0ffee15c0ffee1';

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const company = await server.createCompany('Refused Reports Ltd');
  user = await server.createUser('company_admin', 'refusals@gw.test', { companyId: company });
  await server.registerGateway(SN, KEY, company);
  // A gateway that sends a report without `blocks` and a command reply without `status`, as a first firmware might.
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.telemetry.mqttPort}`, {
    clientId: SN,
    username: SN,
    password: KEY,
    reconnectPeriod: 0,
  });
  await client.publishAsync(
    gatewayTopic(SN, 'report'),
    JSON.stringify({ v: 1, seq: 1, ts: Date.now(), devices: [{ sn: 'IN1', proto: 'sunspec-inverter-3p' }] }),
    { qos: 1 },
  );
  await client.publishAsync(gatewayTopic(SN, 'reply'), JSON.stringify({ v: 1, id: 'c1' }), { qos: 1 });
  await client.endAsync();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openRefusals(page: Page) {
  await page.goto('/device/gateway/list');
  const row = page.getByTestId('gateway-table').locator('tr', { hasText: SN });
  await row.getByTestId('gateway-actions').click();
  // The first action of the row's menu (Refusals, in any language).
  await clickWhenOpen(page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item').first());
  return page.getByTestId('gateway-refusals');
}

describe('gateway refusals', () => {
  it('shows the last refusals with their reasons and the 24-hour count', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, user.account, user.password);
    const drawer = await openRefusals(page);
    // The connection log is written once a second: the count appears when both refusals are in.
    await expect
      .poll(() => drawer.getByTestId('refusals-24h').textContent(), { timeout: 30_000 })
      .toMatch(/2 refused in the last 24 hours/);
    await page.screenshot({ path: join(tmpdir(), 'gateway-refusals.png') });
    await drawer.getByText('A field is missing or has the wrong type').first().waitFor();
    await drawer.getByText('Command reply').waitFor();
    await drawer.getByText('Report', { exact: true }).waitFor();
    await drawer.getByText(/devices\.0\.blocks/).waitFor();
    await drawer.getByText(/^status/).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it("shows the reasons in the user's language", async () => {
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, user.account, user.password);
    // The language picker in the top bar, as a user switches (the page reloads).
    await page.getByTestId('language-picker').click();
    await Promise.all([page.waitForEvent('load'), clickWhenOpen(page.getByRole('menuitem', { name: LANGUAGE_NAMES.de }))]);
    await page.getByTestId('user-menu').waitFor();
    const drawer = await openRefusals(page);
    await drawer.getByText('Ein Feld fehlt oder hat den falschen Typ').first().waitFor();
    await drawer.getByText('Befehlsantwort').waitFor();
    await expect.poll(() => drawer.getByTestId('refusals-24h').textContent()).toMatch(/2 Abweisungen/);
    await context.close();
  }, 180_000);
});
