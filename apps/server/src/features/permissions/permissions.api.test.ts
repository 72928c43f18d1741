import { Code } from '@sunward/contracts/codes';
import type { PermissionEntry } from '@sunward/contracts/permissions';
import { PermissionType } from '@sunward/contracts/permissions';
import { ROLE_GRANTS } from '@sunward/contracts/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('GET /api/v1/permission', () => {
  it("lists the caller's permissions: menus as type 0, buttons otherwise, names localised", async () => {
    const guest = await server.createUser('guest');
    const { access_token } = await signIn(server.app, guest.account, guest.password);
    const en = await call<PermissionEntry[]>(server.app, 'GET', '/api/v1/permission', {
      token: access_token,
      query: { lan: 'en', source: 'web' },
    });
    expect(en.body.code).toBe(0);
    expect(en.body.data.map((p) => p.key).sort()).toEqual([...ROLE_GRANTS.guest].sort());
    const plants = en.body.data.find((p) => p.key === 'station.view');
    expect(plants).toMatchObject({ type: PermissionType.MENU, name: 'Plants' });
    const zh = await call<PermissionEntry[]>(server.app, 'GET', '/api/v1/permission', { token: access_token, query: { lan: 'zh' } });
    expect(zh.body.data.find((p) => p.key === 'station.view')?.name).not.toBe('Plants');
  });

  it('answers HTTP 401 with code 401 without a token', async () => {
    const result = await call(server.app, 'GET', '/api/v1/permission');
    expect(result.status).toBe(401);
    expect(result.body.code).toBe(Code.TOKEN_INVALID);
  });

  it('gives the platform administrator every permission', async () => {
    const { access_token } = await signIn(server.app, ADMIN.account, ADMIN.password);
    const result = await call<PermissionEntry[]>(server.app, 'GET', '/api/v1/permission', { token: access_token });
    expect(result.body.data.map((p) => p.key)).toContain('firmware.management');
    expect(result.body.data.some((p) => p.type !== PermissionType.MENU)).toBe(true);
  });
});

describe('permission enforcement on the server', () => {
  it('answers code 2 to a guest calling a company-only endpoint', async () => {
    const guest = await server.createUser('guest');
    const { access_token } = await signIn(server.app, guest.account, guest.password);
    const result = await call(server.app, 'GET', '/api/v1/permission/company', { token: access_token });
    expect(result.status).toBe(403);
    expect(result.body).toMatchObject({ code: Code.NO_PERMISSION, data: null });
    expect(result.body.message).toBe('You do not have permission to do this.');
  });

  it('lets a company administrator read the assignable permissions, without platform-only keys', async () => {
    // Company keys count inside a company (effectivePermissions): the administrator belongs to one.
    const admin = await server.createUser('company_admin', undefined, { companyId: await server.createCompany('Grants Co') });
    const { access_token } = await signIn(server.app, admin.account, admin.password);
    const result = await call<PermissionEntry[]>(server.app, 'GET', '/api/v1/permission/company', { token: access_token });
    expect(result.body.code).toBe(0);
    expect(result.body.data.map((p) => p.key)).not.toContain('firmware.management');
    const customers = await call<PermissionEntry[]>(server.app, 'GET', '/api/v1/permission/customer', { token: access_token });
    expect(customers.body.data.map((p) => p.key)).toEqual(expect.arrayContaining(['station.view']));
  });

  it('applies a change of a role’s grants on the next request', async () => {
    const staff = await server.createUser('customer', undefined, { companyId: await server.createCompany('Regrant Co') });
    const { access_token } = await signIn(server.app, staff.account, staff.password);
    expect((await call(server.app, 'GET', '/api/v1/permission/customer', { token: access_token })).body.code).toBe(Code.NO_PERMISSION);
    const roleId = await server.repositories.permissions.builtInRoleId('customer');
    const { rolePermissions } = await import('../../db/schema.js');
    await server.database.db.insert(rolePermissions).values({ roleId: roleId ?? -1, permissionKey: 'user.producer' });
    expect((await call(server.app, 'GET', '/api/v1/permission/customer', { token: access_token })).body.code).toBe(0);
    await server.repositories.permissions.syncCatalogue();
  });
});
