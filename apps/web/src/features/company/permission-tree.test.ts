import type { PermissionEntry } from '@sunward/contracts/permissions';
import { describe, expect, it } from 'vitest';
import { permissionTree, withAncestors } from './RolesPage';

const entry = (key: string, parentKey: string | null, sort: number): PermissionEntry => ({
  id: sort,
  key,
  name: key,
  type: 0,
  parentKey,
  sort,
});
const entries = [
  entry('equip.view', null, 1),
  entry('gateway.view', 'equip.view', 2),
  entry('gateway.edit', 'gateway.view', 3),
  entry('station.view', null, 4),
];

describe('permission tree picker', () => {
  it('nests children under their menu', () => {
    const tree = permissionTree(entries);
    expect(tree.map((n) => n.key)).toEqual(['equip.view', 'station.view']);
    expect(tree[0]?.children?.[0]?.children?.[0]?.key).toBe('gateway.edit');
  });
  it('grants the menus above a granted button, in catalogue order', () => {
    expect(withAncestors(['gateway.edit'], entries)).toEqual(['equip.view', 'gateway.view', 'gateway.edit']);
    expect(withAncestors(['station.view'], entries)).toEqual(['station.view']);
  });
});
