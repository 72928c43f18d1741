import { BUILT_IN_ROLES } from '@sunward/contracts/roles';
import { ADMIN } from '@sunward/server/test/harness';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, signInThroughForm } from './support/browser.js';
import { settle, startWalk, stopWalk, type Walk, watch } from './support/walk.js';

/**
 * The role walk signs in as each of the eight built-in roles and opens every entry of that role's menu: no call may
 * answer 4xx/5xx and nothing may reach the console as an error (the menu shows what the calls answer). Then the
 * keyboard reaches the menu and opens a page. The axe walk over every route is e2e/a11y-axe-walk.e2e.test.ts.
 */

let walk: Walk;
beforeAll(async () => {
  walk = await startWalk();
});
afterAll(() => stopWalk(walk));

describe('role walk', () => {
  it.each([...BUILT_IN_ROLES])('opens every menu entry of %s without a refused call or a console error', async (role) => {
    const user = walk.accounts.get(role);
    if (!user) throw new Error(`no ${role}`);
    const { page, context } = await openPage(walk.browser, walk.server.url);
    const { problems, inFlight } = watch(page, walk.server.url);
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

async function waitForMenuAtRest(page: Page) {
  await page.waitForFunction(
    () => document.querySelector('nav[aria-label=main] [class*="-motion-"], .ant-menu-submenu-popup[class*="-zoom-"]') === null,
  );
}

describe('keyboard', () => {
  it('reaches the menu with Tab, opens a page with the arrow keys and Enter, and shows where the focus is', async () => {
    const { page, context } = await openPage(walk.browser, walk.server.url);
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
