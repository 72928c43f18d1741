import { fileURLToPath } from 'node:url';
import type { PlantCreate } from '@sunward/contracts/plants';
import { BUILT_IN_ROLES, type BuiltInRole } from '@sunward/contracts/roles';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser, Page } from 'playwright-core';
import { expect, vi } from 'vitest';
import { launchBrowser } from './browser.js';
import { startProduct } from './product.js';
import { noonLongitude, runSimulator } from './simulator.js';

/**
 * The two walks over the console (a11y-role-walk: every menu entry of every built-in role; a11y-axe-walk: every
 * route in the light and the dark look under axe-core) share this set-up: one server and one browser per file,
 * pages visited one after another. Two files so that the browser phase runs them side by side.
 */

export interface Route {
  path: string;
  permission?: string;
  hidden?: boolean;
  redirect?: string;
  newTab?: boolean;
  page?: string;
  children?: Route[];
}
// Read at run time (the web app is not part of the e2e TypeScript project): the same table the console routes by.
const ROUTE_TABLE = fileURLToPath(new URL('../../apps/web/src/app/route-table.ts', import.meta.url));
export const SPEC_ROUTES = fileURLToPath(new URL('../../docs/spec/routes.tsv', import.meta.url));

const ZONE = 'Africa/Abidjan';
const GATEWAY = { sn: 'GWA11Y0001', key: 'a11ykey001' };
const INVERTER_SN = 'HYA11Y0001';

type Account = { account: string; password: string };

/** What a walk file works on: one server with a plant, its simulated devices, an account per role, one browser. */
export interface Walk {
  server: TestServer;
  browser: Browser;
  simulator: ReturnType<typeof runSimulator>;
  plantId: number;
  shellRoutes: Route[];
  publicRoutes: { path: string }[];
  accounts: Map<BuiltInRole, Account>;
  darkAccounts: { admin: Account; companyAdmin: Account };
}

/**
 * Starts the product with a company, an account for each built-in role (and two in the dark look), a plant whose
 * hybrid inverter, battery and meter the simulator plays, and a browser; resolves once the devices are known.
 */
export async function startWalk(): Promise<Walk> {
  const table = (await import(/* @vite-ignore */ ROUTE_TABLE)) as { ALL_SHELL_ROUTES: Route[]; PUBLIC_ROUTES: { path: string }[] };
  const shellRoutes = table.ALL_SHELL_ROUTES;
  const publicRoutes = table.PUBLIC_ROUTES;
  const [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const companyId = await server.createCompany('Walk Solar');
  // Company roles work inside a company; the others are independent accounts, as sign-up makes them.
  const inCompany: BuiltInRole[] = ['company_admin', 'company_staff', 'agent'];
  const accounts = new Map<BuiltInRole, Account>();
  for (const role of BUILT_IN_ROLES) {
    if (role === 'platform_admin') accounts.set(role, ADMIN);
    else accounts.set(role, await server.createUser(role, undefined, inCompany.includes(role) ? { companyId } : {}));
  }
  const darkAccounts = {
    admin: await server.createUser('platform_admin'),
    companyAdmin: await server.createUser('company_admin', undefined, { companyId }),
  };
  for (const user of Object.values(darkAccounts)) {
    const own = (await signIn(server.app, user.account, user.password)).access_token;
    const saved = await call(server.app, 'POST', '/api/v1/user/personalized', { token: own, json: { styleType: 'dark' } });
    if (saved.body.code !== 0) throw new Error(`dark look not saved: ${JSON.stringify(saved.body)}`);
  }

  const longitude = noonLongitude();
  await server.registerGateway(GATEWAY.sn, GATEWAY.key);
  const body: PlantCreate = {
    name: 'Walk Home',
    capacityKwp: 10,
    plantType: 3,
    latitude: 5,
    longitude,
    timezone: ZONE,
    meteringTopology: 'net',
    gateways: [GATEWAY],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const plant = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token, json: body });
  if (plant.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(plant.body)}`);
  const plantId = plant.body.data.id;
  const fleet: SimulatedFleet = {
    seed: 18,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    gateways: [
      {
        ...GATEWAY,
        intervalSeconds: 2,
        plant: { name: 'Walk Home', latitude: 5, longitude, timezone: ZONE, capacityKwp: 10, plantType: 3, load: 'household' },
        devices: [
          { sn: INVERTER_SN, protocolId: 'sunspec-hybrid-lv', family: 'hybrid_inverter', ratedPowerW: 10_000 },
          { sn: 'BTA11Y0001', protocolId: 'sunspec-battery-bms', family: 'battery', capacityKwh: 12 },
          { sn: 'MTA11Y0001', protocolId: 'sunspec-meter-3p', family: 'meter' },
        ],
      },
    ],
  };
  const simulator = runSimulator(fleet);
  await vi.waitFor(
    async () => {
      const batteries = await call<{ total: number }>(server.app, 'GET', '/api/v1/batteries', { token });
      const inverters = await call<{ total: number }>(server.app, 'GET', '/api/v1/inverters', { token });
      if (batteries.body.data?.total !== 1 || inverters.body.data?.total !== 1) throw new Error('devices not discovered yet');
    },
    { timeout: 60_000, interval: 250 },
  );
  return { server, browser, simulator, plantId, shellRoutes, publicRoutes, accounts, darkAccounts };
}

export async function stopWalk(walk: Walk | undefined): Promise<void> {
  walk?.simulator.stop();
  await walk?.browser.close();
  await walk?.server.close();
}

/** What went wrong on a page: answers of 400 and above from the console's server, console errors, page errors. */
export function watch(page: Page, origin: string): { problems: string[]; inFlight: Set<unknown> } {
  const problems: string[] = [];
  const inFlight = new Set<unknown>();
  page.on('response', (response) => {
    if (response.url().startsWith(origin) && response.status() >= 400)
      problems.push(`${response.status()} ${response.request().method()} ${response.url().slice(origin.length)}`);
  });
  page.on('console', (message) => {
    // Map tiles come from the tile server in the user's browser: this machine has no network to reach it.
    const from = message.location().url;
    if (message.type() === 'error' && (from === '' || from.startsWith(origin))) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // The live streams stay open: only calls that end count towards "the page has its answers".
  const counts = (request: { resourceType(): string; headers(): Record<string, string> }) =>
    request.resourceType() !== 'eventsource' && !(request.headers().accept ?? '').includes('text/event-stream');
  page.on('request', (request) => {
    if (counts(request)) inFlight.add(request);
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  return { problems, inFlight };
}

/** Waits until the page has its main landmark, no call is under way and no spinner turns (two frames apart). */
export async function settle(page: Page, inFlight: Set<unknown>): Promise<void> {
  await page.locator('main, [role=main]').first().waitFor();
  await expect
    .poll(
      async () => {
        if (inFlight.size > 0) return false;
        const quiet = await page.evaluate(
          () =>
            new Promise<boolean>((resolve) =>
              requestAnimationFrame(() =>
                requestAnimationFrame(() =>
                  resolve(
                    document.querySelector('.ant-spin-spinning, .sw-overlay, .ant-skeleton-active') === null &&
                      // No transition or finite animation under way (a menu item's colour fading in is not its colour).
                      document.getAnimations().every((a) => a.effect?.getTiming().iterations === Infinity),
                  ),
                ),
              ),
            ),
        );
        return quiet && inFlight.size === 0;
      },
      { timeout: 30_000, interval: 50 },
    )
    .toBe(true);
}

/** Every path a route stands for, its parameters filled with the walk's plant and inverter. */
export function concretePath(plantId: number, path: string): string {
  return path.replace(':id/:type', `${plantId}/3`).replace(':id', String(plantId)).replace(':kind/:sn', `inverter/${INVERTER_SN}`);
}

/**
 * Opens a path inside the running console, as a link does (history and the router's popstate), without loading
 * the page again: a walk over a hundred routes boots the app once, not a hundred times.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  const moved = await page.evaluate((to) => {
    const target = new URL(to, window.location.href);
    const moves = target.pathname !== window.location.pathname;
    // The shell's navigation bar appears when the router has taken the new path (it is keyed by the path): until
    // then the page on screen is still the previous one, however quiet it looks.
    const seen = new Promise<void>((resolve) => {
      if (!moves) return resolve();
      const observer = new MutationObserver(() => {
        if (document.querySelector('[data-testid=navigation-progress]') === null) return;
        observer.disconnect();
        resolve();
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    (window as unknown as { __walkMoved: Promise<void> }).__walkMoved = seen;
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
    return moves;
  }, path);
  if (moved) await page.evaluate(() => (window as unknown as { __walkMoved: Promise<void> }).__walkMoved);
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
}
