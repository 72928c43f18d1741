import { describe, expect, it } from 'vitest';
import { COMPANY_MEMBER_PERMISSIONS, effectivePermissions } from './permissions.js';
import { ROLE_GRANTS } from './roles.js';

describe('effectivePermissions', () => {
  it('drops the company keys of an account outside any company (the platform administrator’s menu has no members)', () => {
    const held = effectivePermissions(ROLE_GRANTS.platform_admin, false);
    for (const key of COMPANY_MEMBER_PERMISSIONS) expect(held.has(key)).toBe(false);
    expect(held.has('company.info')).toBe(true);
    expect(held.has('firmware.management')).toBe(true);
  });

  it('keeps every key of a role inside a company', () => {
    expect([...effectivePermissions(ROLE_GRANTS.company_admin, true)].sort()).toEqual([...ROLE_GRANTS.company_admin].sort());
  });
});
