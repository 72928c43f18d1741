import { PERMISSIONS, permissionKind } from '@sunward/contracts/permissions';
import { COMPANY_ASSIGNABLE_PERMISSIONS, ROLE_GRANTS } from '@sunward/contracts/roles';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AuthRepository } from '../features/auth/auth.repository.js';
import type { PermissionsRepository } from '../features/permissions/permissions.repository.js';
import { authPlugin } from './auth.js';
import { accessProblem, changesState, type RouteAccess, requiredAccess } from './route-access.js';

const problem = (method: string, url: string, access: unknown) => accessProblem(method, url, access, true);

describe('accessProblem (the start-up check, issue 15.2)', () => {
  it('refuses a change guarded by a view key, by signed-in or by public', () => {
    expect(problem('POST', '/api/v1/meter/:id/delete', 'equip.view')).toMatch(/view key equip.view/);
    expect(problem('DELETE', '/api/v1/x/:id', 'station.view')).toMatch(/view key/);
    expect(problem('PUT', '/api/v1/x', 'signed-in')).toMatch(/any signed-in user/);
    expect(problem('PATCH', '/anonymous/x', 'public')).toMatch(/anyone/);
  });

  it('refuses a GET named like an action when a read guards it', () => {
    expect(problem('GET', '/api/v1/version/:id/delete', 'system.version')).toMatch(/view key/);
    expect(problem('GET', '/api/v1/inverter/:sn/boot', 'inverter.view')).toMatch(/view key/);
    expect(problem('GET', '/anonymous/getCode', 'public')).toMatch(/anyone/);
    expect(changesState('GET', '/api/v1/inverter/:sn/upgrade/progress')).toBe(false);
    expect(changesState('GET', '/api/v1/firmware/batchDelete')).toBe(true);
    expect(changesState('HEAD', '/api/v1/firmware/batchDelete')).toBe(false);
  });

  it('refuses a declared kind that is not the key’s kind, a bare operate or manage key, unknown keys and kinds', () => {
    expect(problem('POST', '/api/v1/meter/:id/delete', { kind: 'manage', key: 'equip.view' })).toMatch(/a view key/);
    expect(problem('POST', '/api/v1/inverter/:sn/boot', { kind: 'manage', key: 'inverter.control' })).toMatch(/an operate key/);
    expect(problem('POST', '/api/v1/x', 'meter.delete')).toMatch(/declare \{ kind: 'manage', key: 'meter.delete' \}/);
    expect(problem('GET', '/api/v1/x', 'no.such.key')).toMatch(/unknown permission/);
    expect(problem('POST', '/api/v1/x', { kind: 'manage', key: 'no.such' })).toMatch(/unknown permission/);
    expect(problem('POST', '/api/v1/x', { kind: 'admin', key: 'meter.delete' })).toMatch(/unknown kind/);
    expect(problem('POST', '/api/v1/x', 42)).toMatch(/neither a string nor an object/);
  });

  it('wants a reason of a few words for own-account, public-write and read-only POSTs', () => {
    expect(problem('POST', '/api/v1/user/avatar', { kind: 'own-account', reason: '' })).toMatch(/without a reason/);
    expect(problem('POST', '/oauth/token', { kind: 'public-write' })).toMatch(/without a reason/);
    expect(problem('POST', '/api/v1/plants', { kind: 'view', key: 'station.view' })).toMatch(/without readsOnly/);
    expect(
      problem('POST', '/api/v1/plants', { kind: 'view', key: 'station.edit', readsOnly: 'a list with its filters in a body' }),
    ).toMatch(/a manage key/);
  });

  it('accepts sound declarations and says what each requires', () => {
    const sound: [string, string, RouteAccess, string][] = [
      ['GET', '/api/v1/meters', 'equip.view', 'equip.view'],
      ['GET', '/api/v1/user', 'signed-in', 'signed-in'],
      ['GET', '/anonymous/about', 'public', 'public'],
      ['POST', '/api/v1/meter/:id/delete', { kind: 'manage', key: 'meter.delete' }, 'meter.delete'],
      ['GET', '/api/v1/inverter/:sn/boot', { kind: 'operate', key: 'inverter.control' }, 'inverter.control'],
      ['GET', '/api/v1/asw', { kind: 'operate', key: 'inverter.setting' }, 'inverter.setting'],
      ['POST', '/api/v1/user/avatar', { kind: 'own-account', reason: 'the caller’s own avatar picture' }, 'signed-in'],
      ['POST', '/oauth/token', { kind: 'public-write', reason: 'sign-in: the password is the proof' }, 'public'],
      ['POST', '/api/v1/plants', { kind: 'view', key: 'station.view', readsOnly: 'the list with its filters in a body' }, 'station.view'],
    ];
    for (const [method, url, access, requires] of sound) {
      expect(problem(method, url, access), `${method} ${url}`).toBeUndefined();
      expect(requiredAccess(access)).toBe(requires);
    }
    expect(accessProblem('GET', '/assets/app.js', undefined, false)).toBeUndefined();
    expect(problem('GET', '/api/v1/x', undefined)).toMatch(/declares no access/);
  });
});

describe('the permission catalogue', () => {
  it('gives every key a kind; menus are views', () => {
    for (const p of PERMISSIONS) {
      expect(['view', 'operate', 'manage']).toContain(p.kind);
      if (p.type === 0) expect(p.kind, p.key).toBe('view');
    }
  });

  it('has edit and delete keys for every device family, held by the roles that manage devices and assignable by companies', () => {
    for (const family of ['meter', 'optimizer', 'meteorological', 'box', 'heatPump', 'smart.acSwitch'])
      for (const action of ['edit', 'delete']) {
        const key = `${family}.${action}` as const;
        const found = PERMISSIONS.find((p) => p.key === key);
        expect(found, key).toBeDefined();
        if (!found) continue;
        expect(permissionKind(found.key)).toBe('manage');
        expect(COMPANY_ASSIGNABLE_PERMISSIONS).toContain(found.key);
        for (const role of ['company_admin', 'company_staff', 'owner', 'agent'] as const) expect(ROLE_GRANTS[role]).toContain(found.key);
        for (const role of ['guest', 'customer'] as const) expect(ROLE_GRANTS[role]).not.toContain(found.key);
      }
  });

  it('leaves the read-only built-in roles (guest, customer) only view keys', () => {
    for (const role of ['guest', 'customer'] as const) for (const key of ROLE_GRANTS[role]) expect(permissionKind(key), key).toBe('view');
  });
});

describe('the auth plugin at start-up', () => {
  // The repositories are only used per request; a start that fails never gets there.
  const deps = { authRepository: {} as AuthRepository, permissionsRepository: {} as PermissionsRepository };

  it('refuses to start with a change guarded by a view key', async () => {
    const app = Fastify();
    await app.register(authPlugin, deps);
    await expect(
      app.register(async (child) => {
        child.post('/api/v1/meter/:id/delete', { config: { access: 'equip.view' } }, async () => ({ ok: true }));
      }),
    ).rejects.toThrow(/changes state but is guarded by the view key equip.view/);
    await app.close();
  });

  it('starts with sound declarations and records what each route requires', async () => {
    const app = Fastify();
    await app.register(authPlugin, deps);
    await app.register(async (child) => {
      child.post('/api/v1/meter/:id/delete', { config: { access: { kind: 'manage', key: 'meter.delete' } } }, async () => ({}));
      child.get('/api/v1/meters', { config: { access: 'equip.view' } }, async () => ({}));
    });
    await app.ready();
    expect(app.routeAccessTable.filter((r) => r.method !== 'HEAD').map((r) => [r.method, r.url, r.requires, r.changesState])).toEqual([
      ['POST', '/api/v1/meter/:id/delete', 'meter.delete', true],
      ['GET', '/api/v1/meters', 'equip.view', false],
    ]);
    await app.close();
  });
});
