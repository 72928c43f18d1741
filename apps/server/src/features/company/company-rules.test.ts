import type { PermissionKey } from '@sunward/contracts/permissions';
import { ROLE_GRANTS } from '@sunward/contracts/roles';
import { describe, expect, it } from 'vitest';
import { typeTree } from '../customers/customers.service.js';
import { grantablePermissions, ungrantable } from './company.service.js';
import { sniffLogo } from './company-logo.js';

describe('role grants', () => {
  const admin = new Set<PermissionKey>(ROLE_GRANTS.company_admin);
  it('offers a company administrator no platform key', () => {
    expect(grantablePermissions(admin)).not.toContain('firmware.management');
    expect(grantablePermissions(new Set<PermissionKey>(ROLE_GRANTS.platform_admin))).not.toContain('system.monitor');
  });
  it('names the first key the caller may not grant: unknown, platform-only or not held', () => {
    expect(ungrantable(['station.view', 'company.edit'], admin)).toBeUndefined();
    expect(ungrantable(['station.view', 'firmware.edit'], admin)).toBe('firmware.edit');
    expect(ungrantable(['made.up'], admin)).toBe('made.up');
    expect(ungrantable(['company.edit'], new Set<PermissionKey>(['station.view']))).toBe('company.edit');
  });
});

describe('logo type by content', () => {
  it('knows JPEG, PNG and GIF signatures and nothing else', () => {
    expect(sniffLogo(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0]))).toBe('jpg');
    expect(sniffLogo(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('png');
    expect(sniffLogo(Buffer.from('GIF89a....', 'latin1'))).toBe('gif');
    expect(sniffLogo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
  });
});

describe('customer type tree', () => {
  it('puts secondary labels under their primary label', () => {
    const t = (id: number, parentId: number | null) => ({ id, name: `t${id}`, remark: null, parentId, customerCount: 0 });
    expect(typeTree([t(1, null), t(2, null), t(3, 1), t(4, 1)]).map((p) => [p.id, p.children.map((c) => c.id)])).toEqual([
      [1, [3, 4]],
      [2, []],
    ]);
  });
});
