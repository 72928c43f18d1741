import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PlantCreate } from '@sunward/contracts/plants';
import { BUILT_IN_ROLES, type BuiltInRole } from '@sunward/contracts/roles';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';
import { noonLongitude, runSimulator } from './support/simulator.js';

/**
 * Two walks over the console on one server and one browser, pages visited one after another:
 * - the role walk signs in as each of the eight built-in roles and opens every entry of that role's menu: no
 *   call may answer 4xx/5xx and nothing may reach the console as an error (the menu shows what the calls answer);
 * - the axe walk opens every route of the app's route table and of the spec's (docs/spec/routes.tsv), in the
 *   light and the dark look, and finds no critical or serious WCAG 2.2 AA violation (nor a refused call).
 */

interface Route {
  path: string;
  permission?: string;
  hidden?: boolean;
  redirect?: string;
  newTab?: boolean;
  page?: string;
  children?: Route[];
}
// Read at run time (the web app is not part of the e2e TypeScript project): the same table the console routes by.
const ROUTE_TABLE = fileURLToPath(new URL('../apps/web/src/app/route-table.ts', import.meta.url));
const SPEC_ROUTES = fileURLToPath(new URL('../docs/spec/routes.tsv', import.meta.url));

const ZONE = 'Africa/Abidjan';
const GATEWAY = { sn: 'GWA11Y0001', key: 'a11ykey001' };
const INVERTER_SN = 'HYA11Y0001';

let server: TestServer;
let browser: Browser;
let simulator: ReturnType<typeof runSimulator> | undefined;
let plantId = 0;
let shellRoutes: Route[] = [];
let publicRoutes: { path: string }[] = [];
const accounts = new Map<BuiltInRole, { account: string; password: string }>();
let darkAccounts: { admin: { account: string; password: string }; companyAdmin: { account: string; password: string } };

beforeAll(async () => {
  const table = (await import(/* @vite-ignore */ ROUTE_TABLE)) as { ALL_SHELL_ROUTES: Route[]; PUBLIC_ROUTES: { path: string }[] };
  shellRoutes = table.ALL_SHELL_ROUTES;
  publicRoutes = table.PUBLIC_ROUTES;
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
  const token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const companyId = await server.createCompany('Walk Solar');
  // Company roles work inside a company; the others are independent accounts, as sign-up makes them.
  const inCompany: BuiltInRole[] = ['company_admin', 'company_staff', 'agent'];
  for (const role of BUILT_IN_ROLES) {
    if (role === 'platform_admin') accounts.set(role, ADMIN);
    else accounts.set(role, await server.createUser(role, undefined, inCompany.includes(role) ? { companyId } : {}));
  }
  darkAccounts = {
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
  plantId = plant.body.data.id;
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
  simulator = runSimulator(fleet);
  await vi.waitFor(
    async () => {
      const batteries = await call<{ total: number }>(server.app, 'GET', '/api/v1/batteries', { token });
      const inverters = await call<{ total: number }>(server.app, 'GET', '/api/v1/inverters', { token });
      if (batteries.body.data?.total !== 1 || inverters.body.data?.total !== 1) throw new Error('devices not discovered yet');
    },
    { timeout: 60_000, interval: 250 },
  );
});

afterAll(async () => {
  simulator?.stop();
  await browser?.close();
  await server?.close();
});

/** What went wrong on a page: answers of 400 and above from the console's server, console errors, page errors. */
function watch(page: Page, origin: string): { problems: string[]; inFlight: Set<unknown> } {
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
async function settle(page: Page, inFlight: Set<unknown>): Promise<void> {
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
                  resolve(document.querySelector('.ant-spin-spinning, .sw-overlay, .ant-skeleton-active') === null),
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
function concretePath(path: string): string {
  return path.replace(':id/:type', `${plantId}/3`).replace(':id', String(plantId)).replace(':kind/:sn', `inverter/${INVERTER_SN}`);
}

describe('role walk', () => {
  it.each([...BUILT_IN_ROLES])('opens every menu entry of %s without a refused call or a console error', async (role) => {
    const user = accounts.get(role);
    if (!user) throw new Error(`no ${role}`);
    const { page, context } = await openPage(browser, server.url);
    const { problems, inFlight } = watch(page, server.url);
    await signInThroughForm(page, user.account, user.password);
    const menu = page.locator('nav[aria-label=main]');
    // Groups unfold on click (inline menu): open each, then collect the pages under it.
    for (const group of await menu.locator('.ant-menu-submenu-title').all()) {
      if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    }
    const entries = await menu.locator('li.ant-menu-item').evaluateAll((items) =>
      items.map((item) => ({
        key: item.getAttribute('data-menu-id')?.replace(/^.*?-(\/.*)$/, '$1') ?? '',
        text: item.textContent ?? '',
      })),
    );
    expect(entries.length).toBeGreaterThan(0);
    const visited: string[] = [];
    for (const entry of entries) {
      if (entry.key.startsWith('/api/')) continue; // opens the API reference in a new tab
      const before = problems.length;
      await menu.locator('li.ant-menu-item', { hasText: entry.text }).first().click();
      await page.waitForURL((url) => url.pathname.startsWith(entry.key));
      await settle(page, inFlight);
      expect(await page.getByTestId('no-access-page').count(), `${role} ${entry.key}`).toBe(0);
      visited.push(entry.key);
      for (const problem of problems.slice(before)) problems[problems.indexOf(problem)] = `${entry.key}: ${problem}`;
    }
    expect(problems, `${role} visited ${visited.join(' ')}`).toEqual([]);
    await context.close();
  });
});

describe('axe walk', () => {
  it('finds the spec’s every route in the app’s route table', () => {
    const specPaths = readFileSync(SPEC_ROUTES, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t')[0]?.replace(/\{(\w+)\}/g, ':$1') ?? '');
    const appPaths = new Set([...shellRoutes.map((r) => r.path), ...publicRoutes.map((r) => r.path)]);
    expect(specPaths.filter((p) => !appPaths.has(p))).toEqual([]);
  });

  /**
   * The pages a look walks, each once, as the account that shows it: company pages (members, roles,
   * customers) as a company administrator, every other page as the platform administrator.
   */
  async function walkShell(look: 'light' | 'dark', who: 'platform' | 'company'): Promise<string[]> {
    const companyAdmin = accounts.get('company_admin');
    if (!companyAdmin) throw new Error('no company administrator');
    const user =
      who === 'platform' ? (look === 'light' ? ADMIN : darkAccounts.admin) : look === 'light' ? companyAdmin : darkAccounts.companyAdmin;
    const companyPage = (r: Route) => r.path.startsWith('/enterprise') || r.path.startsWith('/customer');
    const routes = shellRoutes.filter((r) => r.page && !r.newTab && !r.redirect && companyPage(r) === (who === 'company'));
    const found: string[] = [];
    const { page, context } = await openPage(browser, server.url);
    const { inFlight, problems } = watch(page, server.url);
    await signInThroughForm(page, user.account, user.password);
    for (const route of routes) {
      const before = problems.length;
      await page.goto(concretePath(route.path));
      await settle(page, inFlight);
      for (const problem of problems.slice(before)) found.push(`${look} ${route.path}: ${problem}`);
      await expect(page.evaluate(() => document.documentElement.dataset.theme ?? 'light')).resolves.toBe(look);
      for (const problem of await seriousAccessibilityProblems(page)) found.push(`${look} ${route.path}: ${problem}`);
    }
    await context.close();
    return found;
  }

  // A loaded two-core machine (three browser files at once) takes a minute or two per walk.
  it.each([
    ['light', 'platform'],
    ['light', 'company'],
    ['dark', 'platform'],
    ['dark', 'company'],
  ] as const)(
    'finds nothing critical or serious on any signed-in page in the %s look (%s pages)',
    async (look, who) => {
      expect(await walkShell(look, who)).toEqual([]);
    },
    300_000,
  );

  it('finds nothing critical or serious on any public page', async () => {
    const { page, context } = await openPage(browser, server.url);
    const { inFlight, problems } = watch(page, server.url);
    const found: string[] = [];
    for (const route of publicRoutes) {
      const before = problems.length;
      await page.goto(route.path);
      await settle(page, inFlight);
      for (const problem of problems.slice(before)) found.push(`${route.path}: ${problem}`);
      for (const problem of await seriousAccessibilityProblems(page)) found.push(`${route.path}: ${problem}`);
    }
    expect(found).toEqual([]);
    await context.close();
  });
});

/** Until no submenu of the main menu is running its open or close animation (antd's motion classes). */
async function waitForMenuAtRest(page: Page) {
  await page.waitForFunction(
    () => document.querySelector('nav[aria-label=main] [class*="-motion-"], .ant-menu-submenu-popup[class*="-zoom-"]') === null,
  );
}

describe('keyboard', () => {
  it('reaches the menu with Tab, opens a page with the arrow keys and Enter, and shows where the focus is', async () => {
    const { page, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    const inMenu = () => page.evaluate(() => document.activeElement?.closest('nav[aria-label=main]') !== null);
    for (let i = 0; i < 40 && !(await inMenu()); i++) await page.keyboard.press('Tab');
    expect(await inMenu()).toBe(true);
    // The focused element is drawn with a ring (outline or box shadow), not only a colour change.
    const ring = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement as Element);
      return (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none';
    });
    expect(ring).toBe(true);
    const active = () =>
      page.evaluate(() => {
        const element = document.activeElement;
        const id = element?.getAttribute('aria-activedescendant');
        return ((id ? document.getElementById(id) : element)?.textContent ?? '').trim();
      });
    // Each arrow key moves the active item once the menu has taken the previous one (the active descendant
    // updates after the key): pressing on before it did would skip items on a loaded machine.
    const arrowDownTo = async (name: string, most: number) => {
      for (let i = 0; i < most; i++) {
        const before = await active();
        if (before === name) return;
        await page.keyboard.press('ArrowDown');
        await expect.poll(active).not.toBe(before);
      }
    };
    await arrowDownTo('Firmware', 20);
    expect(await active()).toBe('Firmware');
    // Enter toggles the submenu. It is pressed only once the menu has settled on the title (no submenu
    // still opening or closing from the arrow keys), then the test waits for the menu to say it is open
    // (aria-expanded) and for its items to be visible: arrow keys pressed before they exist move nowhere.
    const firmware = page.locator('nav[aria-label=main] .ant-menu-submenu-title').filter({ hasText: /^\s*Firmware\s*$/ });
    await waitForMenuAtRest(page);
    if ((await firmware.getAttribute('aria-expanded')) !== 'true') await page.keyboard.press('Enter');
    await expect.poll(() => firmware.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('menuitem', { name: 'Firmware list', exact: true }).waitFor({ state: 'visible' });
    await waitForMenuAtRest(page);
    await arrowDownTo('Firmware list', 5);
    expect(await active()).toBe('Firmware list');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/firmware/list');
    await context.close();
  });
});
