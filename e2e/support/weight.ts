import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { PlantCreate } from '@sunward/contracts/plants';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openPage, signInThroughForm } from './browser.js';

/** Issue 18 budgets: JavaScript (gzip, level 9) a cold first load may fetch. */
export const SIGN_IN_BUDGET_BYTES = 200 * 1024;
export const SIGNED_IN_BUDGET_BYTES = 350 * 1024;

export interface LoadedScript {
  path: string;
  gzip: number;
}

export interface PageWeight {
  scripts: LoadedScript[];
  gzip: number;
}

/** A page the budgets cover: where it is and what shows once it has loaded. */
export interface WeighedPage {
  name: string;
  path: string;
  ready: string;
}

/** One plant (no gateway reports needed: the overview's code is the same with or without data). */
export async function createWeighedPlant(server: Pick<TestServer, 'app' | 'registerGateway'>): Promise<number> {
  const token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  await server.registerGateway('GWWEIGHT01', 'weightkey1');
  const body: PlantCreate = {
    name: 'Weighed Roof',
    capacityKwp: 10,
    plantType: 1,
    latitude: 48.2,
    longitude: 16.4,
    timezone: 'Europe/Vienna',
    meteringTopology: 'net',
    gateways: [{ sn: 'GWWEIGHT01', key: 'weightkey1' }],
    tariff: { currency: 'EUR', pricingMethod: 'generation', feedInPrice: 0.08, selfUsePrice: 0.3, totalInvestment: 9000 },
  };
  const result = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token, json: body });
  if (result.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(result.body)}`);
  return result.body.data.id;
}

/** The pages the budgets cover: the sign-in page, the plant list and a plant overview. */
export function weighedPages(plantId: number): { signIn: WeighedPage; signedIn: WeighedPage[] } {
  return {
    signIn: { name: 'sign-in (/login)', path: '/login', ready: '[data-testid="login-submit"]' },
    signedIn: [
      { name: 'plant list (/plants)', path: '/plants', ready: '[data-testid="plant-list-page"]' },
      { name: 'plant overview', path: `/plants/overview/${plantId}/1`, ready: '[data-testid="plant-overview-page"]' },
    ],
  };
}

/** The browser storage of a signed-in administrator (tokens in local storage), for cold loads that stay signed in. */
export async function signedInState(browser: Browser, baseURL: string): Promise<Awaited<ReturnType<BrowserContext['storageState']>>> {
  const { page, context } = await openPage(browser, baseURL);
  await signInThroughForm(page, ADMIN.account, ADMIN.password);
  const state = await context.storageState();
  await context.close();
  return state;
}

async function scriptsQuiet(page: Page, pending: Set<string>): Promise<void> {
  // Settled when no script has been requested or is in flight for 750 ms (lazy chunks a page pulls after first paint count).
  let quietSince = Date.now();
  let lastCount = -1;
  for (;;) {
    const count = pending.size;
    if (count !== lastCount || count > 0) {
      quietSince = Date.now();
      lastCount = count;
    }
    if (Date.now() - quietSince >= 750) return;
    await page.waitForTimeout(50);
  }
}

/**
 * Loads a page cold (fresh context, empty cache) and sums the gzip size of every script it fetched until it
 * showed and stopped fetching scripts. Sizes are gzip level 9 of the built files, so the figure is deterministic.
 */
export async function weighPage(
  browser: Browser,
  baseURL: string,
  webDist: string,
  target: WeighedPage,
  storageState?: Awaited<ReturnType<BrowserContext['storageState']>>,
): Promise<PageWeight> {
  const context = await browser.newContext({ baseURL, locale: 'en-GB', viewport: { width: 1366, height: 860 }, storageState });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const seen = new Set<string>();
  const pending = new Set<string>();
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (!path.endsWith('.js')) return;
    seen.add(path);
    pending.add(request.url());
  });
  const done = (request: { url(): string }) => pending.delete(request.url());
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  await page.goto(target.path);
  await page.locator(target.ready).first().waitFor();
  await scriptsQuiet(page, pending);
  await context.close();
  const scripts = [...seen].map((path) => ({ path, gzip: gzipSync(readFileSync(join(webDist, path)), { level: 9 }).length }));
  return { scripts: scripts.sort((a, b) => b.gzip - a.gzip), gzip: scripts.reduce((sum, s) => sum + s.gzip, 0) };
}
