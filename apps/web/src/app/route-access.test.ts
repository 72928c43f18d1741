import type { PermissionKey } from '@sunward/contracts/permissions';
import { ROLE_GRANTS } from '@sunward/contracts/roles';
import { describe, expect, it } from 'vitest';
import { buildMenu, canOpen, findShellRoute, homePath, menuSelection } from './route-access';
import { PUBLIC_ROUTES } from './route-table';

const holder = (keys: readonly PermissionKey[]) => (key: PermissionKey) => keys.includes(key);

describe('route table', () => {
  // Spec 01 §2's public routes but /download-center, which lists the caller's own files (issue 21).
  it('lists exactly the public routes of spec 01 §2', () => {
    expect(PUBLIC_ROUTES.map((r) => r.path).sort()).toEqual(
      [
        '/login',
        '/loginThird',
        '/reg',
        '/forget',
        '/agreement',
        '/agreementen',
        '/plantLayout',
        '/register/userAgreement',
        '/resetSuccessful',
        '/authorizationFailed',
        '/app/download',
        '/firmwareLogging',
        '/success',
        '/403',
        // Sunward: the large-screen display, opened by a display link without a session (issue 20).
        '/fullscreen',
        // Sunward: the documentation the help button opens (spec 01 §2 "help button", issue 24), shipped with the console.
        '/help',
        '/help/:topic',
      ].sort(),
    );
  });

  it('finds routes with parameters and keeps the spec permission keys', () => {
    expect(findShellRoute('/plants/overview/12/1')?.title).toBe('route.plantOverview');
    expect(findShellRoute('/enterprise/roles')?.permission).toBe('company.role.list.view');
    expect(findShellRoute('/device/battery')?.permission).toBe('battery.list.view');
    expect(findShellRoute('/nope')).toBeUndefined();
  });
});

describe('buildMenu', () => {
  it('gives a guest plants, the device group, reports and the display without company or firmware', () => {
    const menu = buildMenu(holder(ROLE_GRANTS.guest));
    expect(menu.map((e) => e.key)).toEqual(['/plants', '/device', '/report', '/fullscreen/links', '/download-center', '/api/docs']);
    expect(menu[1]?.children?.map((c) => c.key)).toEqual([
      '/device/gateway/list',
      '/device/inverter',
      '/device/battery',
      '/device/other',
      // A guest is in no company, so no app is enabled for them: no AC switch entry (application centre).
      '/device/event',
    ]);
  });

  it('hides hidden routes and drops a group whose children are all closed', () => {
    const menu = buildMenu(holder(['company.management']));
    expect(menu.find((e) => e.key === '/enterprise')).toBeUndefined();
    expect(menu.some((e) => e.key === '/plant-add' || e.key === '/edit')).toBe(false);
  });

  it('marks the entry that opens in a new tab', () => {
    expect(buildMenu(holder([])).find((e) => e.key === '/api/docs')?.newTab).toBe(true);
  });

  it('shows the bulbs and rules entries only while the company enabled their app (issue 22)', () => {
    const keys = (apps: Set<'smart_bulb' | 'smart_rule'>) => buildMenu(holder(['station.view']), undefined, apps).map((e) => e.key);
    expect(keys(new Set())).not.toContain('/smart/lights');
    expect(keys(new Set(['smart_bulb']))).toContain('/smart/lights');
    expect(keys(new Set(['smart_bulb']))).not.toContain('/smart/rules');
    expect(keys(new Set(['smart_bulb', 'smart_rule']))).toEqual(expect.arrayContaining(['/smart/lights', '/smart/rules']));
  });

  it('shows the AC switch entry only while the company enabled the smart switch app', () => {
    const devices = (apps: Set<'smart_switch'>) =>
      buildMenu(holder(['equip.view', 'smart.acSwitch']), undefined, apps)
        .find((e) => e.key === '/device')
        ?.children?.map((c) => c.key);
    expect(devices(new Set())).not.toContain('/device/acSwitch');
    expect(devices(new Set(['smart_switch']))).toContain('/device/acSwitch');
  });
});

describe('menuSelection (spec 01 §2 highlight rules)', () => {
  it('highlights plants for the plant overview, edit and add pages', () => {
    for (const path of ['/plants/overview/3/2', '/plants/edit/3', '/plant-add']) expect(menuSelection(path).selected).toBe('/plants');
  });
  it('highlights inverters for the device setting pages and opens the device group', () => {
    expect(menuSelection('/device/setting')).toEqual({ selected: '/device/inverter', open: ['/device'] });
    expect(menuSelection('/plants/device/setting').selected).toBe('/device/inverter');
  });
});

describe('homePath and canOpen', () => {
  it('leads to /plants for plant viewers and to the first open page otherwise', () => {
    expect(homePath(holder(['station.view']))).toBe('/plants');
    expect(homePath(holder(['company.management', 'company.user']))).toBe('/enterprise/user');
  });
  it('opens routes without a key to any signed-in user', () => {
    expect(canOpen({ path: '/edit', title: 'route.personalSettings' }, holder([]))).toBe(true);
    expect(canOpen({ path: '/plants', title: 'route.plants', permission: 'station.view' }, holder([]))).toBe(false);
  });
});
