import type { PermissionKey } from '@sunward/contracts/permissions';
import type { SmartApp } from '@sunward/contracts/smart-home';
import { matchPath } from 'react-router';
import { ALL_SHELL_ROUTES, type AppRoute, SHELL_ROUTES } from './route-table';

/** Spec 01 §6: a route is open when it has no permission key or its key is in the user's list. */
export function canOpen(route: AppRoute, has: (key: PermissionKey) => boolean): boolean {
  return route.permission === undefined || has(route.permission);
}

export function findShellRoute(pathname: string): AppRoute | undefined {
  return ALL_SHELL_ROUTES.find((r) => !r.newTab && matchPath({ path: r.path, end: true }, pathname));
}

/**
 * Where "/" leads: /plants per spec 01 §2, or, for a user without the plant permission, the first
 * menu page they may open (a company administrator without plants still lands somewhere useful).
 */
export function homePath(has: (key: PermissionKey) => boolean): string | undefined {
  const candidates = ALL_SHELL_ROUTES.filter((r) => r.page && !r.hidden && !r.newTab && !r.path.includes(':'));
  return candidates.find((r) => canOpen(r, has))?.path;
}

export interface MenuEntry {
  key: string;
  title: AppRoute['title'];
  newTab: boolean;
  children?: MenuEntry[];
}

/**
 * The menu: visible routes the user may open, groups without any open child dropped; an app's entries only while
 * the company enabled the app (application centre).
 */
export function buildMenu(
  has: (key: PermissionKey) => boolean,
  routes: readonly AppRoute[] = SHELL_ROUTES,
  apps: ReadonlySet<SmartApp> = new Set(),
): MenuEntry[] {
  const entries: MenuEntry[] = [];
  for (const route of routes) {
    if (route.hidden || !canOpen(route, has) || (route.app && !apps.has(route.app))) continue;
    if (route.children) {
      const children = buildMenu(has, route.children, apps);
      if (children.length > 0) entries.push({ key: route.path, title: route.title, newTab: false, children });
      continue;
    }
    entries.push({ key: route.path, title: route.title, newTab: route.newTab ?? false });
  }
  return entries;
}

/** The menu key to highlight and the groups to open for a path (spec 01 §2 highlight rules). */
export function menuSelection(pathname: string): { selected: string | undefined; open: string[] } {
  const route = findShellRoute(pathname);
  const selected = route?.highlight ?? route?.path;
  const open = SHELL_ROUTES.filter((group) => group.children?.some((c) => c.path === selected || c.path === route?.path)).map(
    (g) => g.path,
  );
  return { selected, open };
}
