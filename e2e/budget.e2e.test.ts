import type { TestServer } from '@sunward/server/test/harness';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { startProduct, WEB_DIST } from './support/product.js';
import {
  createWeighedPlant,
  type PageWeight,
  SIGN_IN_BUDGET_BYTES,
  SIGNED_IN_BUDGET_BYTES,
  signedInState,
  weighedPages,
  weighPage,
} from './support/weight.js';

// Weight budgets of a cold first load: the JavaScript (gzip, level 9, of the built files) a page fetches until it
// shows and stops fetching scripts. Sizes, not timings, so the test is deterministic; bench/page-weight.ts prints the
// same figures with the detail per chunk, bench/lighthouse.mjs the Lighthouse scores (docs/benchmarks.md).
// Issue 18's targets are 350 KB for signed-in routes (SIGNED_IN_BUDGET_BYTES) and 200 KB for sign-in
// (SIGN_IN_BUDGET_BYTES). Both are met and held (2026-11-28: sign-in 133.4 KB, plant list 341.4 KB, overview 345.8 KB
// without its chart; docs/benchmarks.md says what took them there).
const SIGNED_IN_CEILING_BYTES = SIGNED_IN_BUDGET_BYTES;
const SIGN_IN_CEILING_BYTES = SIGN_IN_BUDGET_BYTES;

let server: TestServer;
let browser: Browser;
let pages: ReturnType<typeof weighedPages>;
let state: Awaited<ReturnType<BrowserContext['storageState']>>;
beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  pages = weighedPages(await createWeighedPlant(server));
  state = await signedInState(browser, server.url);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const CHART_OR_MAP = /echarts|leaflet|chart-canvas|TileLayer/i;
const chartOrMap = (weight: PageWeight) => weight.scripts.map((s) => s.path).filter((p) => CHART_OR_MAP.test(p));

describe('first-load weight', () => {
  it('the sign-in page stays within its budget and loads no chart or map code', async () => {
    const weight = await weighPage(browser, server.url, WEB_DIST, pages.signIn);
    expect(weight.gzip).toBeLessThanOrEqual(SIGN_IN_CEILING_BYTES);
    expect(chartOrMap(weight)).toEqual([]);
  });

  it('the plant list and a plant overview stay within the signed-in ceiling; the list loads no chart or map code', async () => {
    const [list, overview] = pages.signedIn;
    if (!list || !overview) throw new Error('pages missing');
    const listWeight = await weighPage(browser, server.url, WEB_DIST, list, state);
    expect(listWeight.gzip).toBeLessThanOrEqual(SIGNED_IN_CEILING_BYTES);
    expect(chartOrMap(listWeight)).toEqual([]);
    const overviewWeight = await weighPage(browser, server.url, WEB_DIST, overview, state);
    // The overview's charts load ECharts on demand once a chart has data to draw, after the page has painted: the
    // chart chunk is the view's own weight, not its first load's.
    const chartBytes = overviewWeight.scripts.filter((s) => CHART_OR_MAP.test(s.path)).reduce((n, s) => n + s.gzip, 0);
    expect(overviewWeight.gzip - chartBytes).toBeLessThanOrEqual(SIGNED_IN_CEILING_BYTES);
  });

  it('is served precompressed with long-lived caching for hashed assets', async () => {
    const html = await fetch(`${server.url}/login`);
    const asset = /\/assets\/[^"]+\.js/.exec(await html.text())?.[0];
    expect(asset).toBeDefined();
    const response = await fetch(`${server.url}${asset}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('cache-control')).toContain('immutable');
  });
});
