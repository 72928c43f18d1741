import { readFileSync } from 'node:fs';
import { ADMIN } from '@sunward/server/test/harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { openPage, signInThroughForm } from './support/browser.js';
import { concretePath, navigateInApp, type Route, SPEC_ROUTES, settle, startWalk, stopWalk, type Walk, watch } from './support/walk.js';

/**
 * The axe walk opens every route of the app's route table and of the spec's (docs/spec/routes.tsv), in the light and
 * the dark look, and finds no critical or serious WCAG 2.2 AA violation (nor a refused call).
 */

let walk: Walk;
beforeAll(async () => {
  walk = await startWalk();
});
afterAll(() => stopWalk(walk));

describe('axe walk', () => {
  it('finds the spec’s every route in the app’s route table', () => {
    const specPaths = readFileSync(SPEC_ROUTES, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t')[0]?.replace(/\{(\w+)\}/g, ':$1') ?? '');
    const appPaths = new Set([...walk.shellRoutes.map((r) => r.path), ...walk.publicRoutes.map((r) => r.path)]);
    expect(specPaths.filter((p) => !appPaths.has(p))).toEqual([]);
  });

  /**
   * The pages a look walks, each once, as the account that shows it: company pages (members, roles,
   * customers) as a company administrator, every other page as the platform administrator.
   */
  async function walkShell(look: 'light' | 'dark', who: 'platform' | 'company'): Promise<string[]> {
    const companyAdmin = walk.accounts.get('company_admin');
    if (!companyAdmin) throw new Error('no company administrator');
    const user =
      who === 'platform'
        ? look === 'light'
          ? ADMIN
          : walk.darkAccounts.admin
        : look === 'light'
          ? companyAdmin
          : walk.darkAccounts.companyAdmin;
    const companyPage = (r: Route) => r.path.startsWith('/enterprise') || r.path.startsWith('/customer');
    const routes = walk.shellRoutes.filter((r) => r.page && !r.newTab && !r.redirect && companyPage(r) === (who === 'company'));
    const found: string[] = [];
    const { page, context } = await openPage(walk.browser, walk.server.url);
    const { inFlight, problems } = watch(page, walk.server.url);
    await signInThroughForm(page, user.account, user.password);
    for (const route of routes) {
      const before = problems.length;
      await navigateInApp(page, concretePath(walk.plantId, route.path));
      await settle(page, inFlight);
      for (const problem of problems.slice(before)) found.push(`${look} ${route.path}: ${problem}`);
      await expect(page.evaluate(() => document.documentElement.dataset.theme ?? 'light')).resolves.toBe(look);
      for (const problem of await seriousAccessibilityProblems(page)) found.push(`${look} ${route.path}: ${problem}`);
    }
    await context.close();
    return found;
  }

  // A loaded two-core machine (three browser files at once) takes a minute or two per walk; one as slow as the CI
  // machine (a cgroup at 0.85 CPU here) took over 300 s for the platform pages.
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
    600_000,
  );

  it('finds nothing critical or serious on any public page', async () => {
    const { page, context } = await openPage(walk.browser, walk.server.url);
    const { inFlight, problems } = watch(page, walk.server.url);
    const found: string[] = [];
    for (const route of walk.publicRoutes) {
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
