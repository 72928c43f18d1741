import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PlantCreate } from '@sunward/contracts/plants';
import { call, signIn } from '@sunward/server/test/client';
import type { TestServer } from '@sunward/server/test/harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

/*
 * Issue 25 (open plant API): a company administrator creates an API key for one plant in the console and sees it
 * once, a program uses it against /open/v1 (fetch from the page), the key is revoked and refused from then on;
 * a webhook is added and its signing secret shown once.
 */

let server: TestServer;
let browser: Browser;
let receiver: Server;
let account: { account: string; password: string };

beforeAll(async () => {
  // The webhook goes to a receiver on this machine: private addresses allowed (the guard's own test: webhook-address.api.test.ts).
  [server, browser] = await Promise.all([startProduct({ WEBHOOK_ALLOW_PRIVATE: 'true' }), launchBrowser()]);
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const companyId = await server.createCompany('Open Works');
  account = await server.createUser('company_admin', 'open-admin@example.com', { companyId });
  const token = (await signIn(server.app, account.account, account.password)).access_token;
  for (const [name, sn] of [
    ['Quarry Roof', 'GWOPEN01'],
    ['Mill Barn', 'GWOPEN02'],
  ] as const) {
    const key = `${sn.toLowerCase()}key`;
    await server.registerGateway(sn, key, companyId);
    const body: PlantCreate = {
      name,
      capacityKwp: 8,
      plantType: 1,
      latitude: 48.2,
      longitude: 16.4,
      timezone: 'Europe/Vienna',
      meteringTopology: 'net',
      gateways: [{ sn, key }],
      tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
    };
    const created = await call(server.app, 'POST', '/api/v1/plant', { token, json: body });
    if (created.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(created.body)}`);
  }
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  await browser?.close();
  await server?.close();
});

/** A program's call with the key, made from the page (same origin), answering status, envelope and quota headers. */
const openCall = (secret: string, path: string) =>
  `fetch(${JSON.stringify(path)}, { headers: { authorization: 'Bearer ${secret}' } }).then(async (r) => ({ status: r.status, body: await r.json(), limit: r.headers.get('ratelimit-limit'), remaining: r.headers.get('ratelimit-remaining') }))`;

describe('API keys and webhooks page', () => {
  it('creates a key shown once, which reads its plant through /open/v1 until it is revoked', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, account.account, account.password, '/open-api');
    await page.getByTestId('page-title').waitFor();
    // Empty states say what to do.
    await page.getByText('No API keys yet.', { exact: false }).waitFor();
    await page.getByText('No webhooks yet.', { exact: false }).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.getByTestId('api-key-new').click();
    await page.locator('#api-key-name').fill('Monitoring');
    await page.locator('#api-key-plants').click();
    await clickWhenOpen(page.locator('.ant-select-dropdown:visible').getByText('Quarry Roof', { exact: true }));
    const picked = page.locator('.ant-select', { has: page.locator('#api-key-plants') }).locator('.ant-select-selection-item');
    await expect.poll(() => picked.allInnerTexts()).toEqual(['Quarry Roof']);
    await page.locator('#api-key-quota').fill('30');
    await page.locator('#api-key-name').click();
    await page.locator('#api-key-save').click();
    const secretBox = page.getByTestId('api-key-secret');
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^sw_[0-9a-f]{10}_[A-Za-z0-9_-]{43}$/);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Done' }).click();
    await secretBox.waitFor({ state: 'detached' });
    // Seen once: the list names the key by its prefix only.
    const row = page.locator('.ant-table-row', { hasText: 'Monitoring' });
    await row.waitFor();
    expect(await row.textContent()).toContain(secret.slice(0, 13));
    expect(await page.content()).not.toContain(secret.slice(14));

    const plants = await page.evaluate(openCall(secret, '/open/v1/plants'));
    expect(plants).toMatchObject({ status: 200, limit: '30', remaining: '29', body: { code: 0 } });
    const names = (plants as { body: { data: { name: string; id: number }[] } }).body.data;
    expect(names.map((p) => p.name)).toEqual(['Quarry Roof']);
    const realtime = await page.evaluate(openCall(secret, `/open/v1/plants/${names[0]?.id}/realtime`));
    expect(realtime).toMatchObject({ status: 200, body: { code: 0, data: { capacityKwp: 8 } } });

    // Revoked in the console: refused at once.
    const id = await row.getAttribute('data-row-key');
    await page.getByTestId(`api-key-revoke-${id}`).click();
    await clickWhenOpen(page.locator('.ant-popconfirm:visible .ant-btn-primary'));
    await expect.poll(() => page.getByTestId(`api-key-state-${id}`).getAttribute('data-state')).toBe('revoked');
    const refused = await page.evaluate(openCall(secret, '/open/v1/plants'));
    expect(refused).toMatchObject({ status: 401, body: { code: 4320 } });
    expect(errors).toEqual([]);
  });

  it('adds a webhook whose signing secret is shown once, with its delivery log', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, account.account, account.password, '/open-api');
    await page.getByTestId('webhook-new').click();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sunward`;
    await page.locator('#webhook-url').fill(url);
    await page.locator('#webhook-save').click();
    const secretBox = page.getByTestId('webhook-secret');
    await secretBox.waitFor();
    expect(await secretBox.inputValue()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.locator('.ant-table-row', { hasText: url });
    await row.waitFor();
    const id = await row.getAttribute('data-row-key');
    await page.getByTestId(`webhook-deliveries-${id}`).click();
    await page.getByText('Nothing delivered yet', { exact: false }).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
