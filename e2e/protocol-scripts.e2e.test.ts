import type { ProtocolDetail } from '@sunward/contracts/protocols';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

// Issue 19: a platform administrator writes a protocol's script in the test console, sees its output
// (and its error when it loops), and saves it.

let server: TestServer;
let browser: Browser;
let protocolId = 0;

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const created = await call<ProtocolDetail>(server.app, 'POST', '/api/v1/protocols', {
    token,
    json: {
      identifier: 'lumen-inv',
      code: 'LUMEN-1',
      name: 'LUMEN inv1',
      manufacturer: 'Lumen Power',
      family: 'inverter',
      protocolVersion: '1.0',
      configurationVersion: '7',
      content: {
        title: { en: 'Lumen inverter', zh: 'Lumen 逆变器' },
        source: 'Lumen register list',
        points: [
          {
            id: 'W',
            label: { en: 'Power', zh: '功率' },
            functionCode: 4,
            address: 0,
            count: 1,
            type: 'u16',
            unit: 'W',
            operation: 'r',
            role: 'power',
          },
          {
            id: 'Tmp',
            label: { en: 'Temperature', zh: '温度' },
            functionCode: 4,
            address: 1,
            count: 1,
            type: 's16',
            unit: '°C',
            operation: 'r',
          },
        ],
        events: [],
      },
    },
  });
  if (created.body.code !== 0) throw new Error(JSON.stringify(created.body));
  protocolId = created.body.data.id;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('protocol scripts', () => {
  it('writes a script in the test console, sees its output and its error, and saves it', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, `/system/protocols/${protocolId}/edit`);
    await page.getByTestId('script-panel').waitFor();
    await page.getByText('This configuration version has no script yet').waitFor();

    const source = page.getByLabel('Script source', { exact: true });
    await source.fill('function transform(input) {\n  return { Tmp: input.points.Tmp / 10, W: input.input[0] * 2 };\n}');
    await page.getByLabel('Registers (hex, 4 digits each)', { exact: true }).fill('0064 00FA');
    await page.getByTestId('script-run').click();
    const result = page.getByTestId('script-result');
    // W = 0x64 = 100 → 200; Tmp = 0xFA = 250 → 25.
    await result.getByRole('row', { name: 'W 100 W 200 W' }).waitFor();
    await result.getByRole('row', { name: 'Tmp 250 °C 25 °C' }).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // A script that loops forever is stopped and its error shown; nothing is stored.
    await source.fill('function transform(input) {\n  while (true) {}\n}');
    await page.getByTestId('script-run').click();
    await page
      .getByTestId('script-error')
      .getByText(/ran over 50 ms/)
      .waitFor();
    // Saving it is refused beside the source.
    await page.getByTestId('script-save').click();
    await page.getByText(/The script does not run: transform: InternalError: ran over 50 ms/).waitFor();

    await source.fill('function transform(input) {\n  return { Tmp: input.points.Tmp / 10 };\n}');
    await page.getByTestId('script-save').click();
    await page.getByText('Script saved: it runs from the next report on').waitFor();
    await page.getByText('Runs on every reading now').waitFor();
    expect(errors).toEqual([]);
  });
});
