import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestServer } from '@sunward/server/test/harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { launchBrowser, openPage } from './support/browser.js';
import { startProduct } from './support/product.js';

let server: TestServer;
let browser: Browser;
const repo = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('app download: desktop tools', () => {
  it('lists the files this build ships with their real sizes, and downloads them whole', async () => {
    const gateway = readFileSync(repo('examples/python-gateway/gateway.py'));
    const maps = readdirSync(repo('docs/register-maps')).filter((f) => f.endsWith('.md'));
    // The register maps are one reference: each page and a blank line after it.
    const mapsSize = maps.reduce((sum, f) => sum + readFileSync(repo(`docs/register-maps/${f}`)).length + 2, 0);
    const { page, errors } = await openPage(browser, server.url);
    await page.goto('/app/download');
    const tools = page.getByTestId('desktop-tools');
    await tools.waitFor();
    // Sizes as the page shows them (KB with one decimal), from the real files.
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    expect(await page.getByTestId('tool-size-pythonGateway').textContent()).toBe(kb(gateway.length));
    expect(await page.getByTestId('tool-size-registerMaps').textContent()).toBe(kb(mapsSize));
    expect(await page.getByTestId('tool-size-gatewayProtocol').textContent()).toBe(
      kb(readFileSync(repo('docs/gateway-protocol.md')).length),
    );
    expect(await tools.getByText('Example gateway in Python: connects devices to the console over MQTT').count()).toBe(1);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // The example gateway downloads byte for byte.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('tool-pythonGateway').click()]);
    expect(download.suggestedFilename()).toBe('gateway.py');
    const path = await download.path();
    expect(readFileSync(path).equals(gateway)).toBe(true);
    const reference = await page.request.get('/tools/register-maps.md');
    expect(reference.status()).toBe(200);
    expect((await reference.body()).length).toBe(mapsSize);

    // The protocol toolbox is in the console: the link leads there (sign-in first).
    await page.getByTestId('tool-toolbox').click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(errors).toEqual([]);
  });
});
