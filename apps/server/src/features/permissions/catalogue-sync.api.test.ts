import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../db/rows.js';
import { rolePermissions } from '../../db/schema.js';
import { call, signIn } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

/*
 * Issue 15.2: meters, optimizers, weather stations, combiner boxes, heat pumps and AC switches got their own
 * edit and delete keys; before, equip.view alone allowed both. A database that already holds custom roles gets
 * the new keys into the roles that could edit or delete devices, once, and into no read-only role.
 */

let server: TestServer;
let adminToken = '';

async function role(name: string, permissions: string[]): Promise<number> {
  const result = await call<{ id: number }>(server.app, 'POST', '/api/v1/company/role', { token: adminToken, json: { name, permissions } });
  if (result.body.code !== 0) throw new Error(JSON.stringify(result.body));
  return result.body.data.id;
}

async function keysOf(roleId: number): Promise<string[]> {
  const rows = await sqlRows(
    server.database.db,
    { key: rolePermissions.permissionKey },
    sql`select permission_key as key from role_permissions where role_id = ${roleId} order by 1`,
  );
  return rows.map((r) => r.key);
}

beforeAll(async () => {
  server = await startTestServer();
  const companyId = await server.createCompany('Carry Solar');
  const admin = await server.createUser('company_admin', 'admin@carry.test', { companyId });
  adminToken = (await signIn(server.app, admin.account, admin.password)).access_token;
});

afterAll(async () => server?.close());

describe('catalogue sync of keys new to a database', () => {
  it('offers the device edit and delete keys in the role editor, named in the caller’s language', async () => {
    const result = await call<{ key: string; name: string; parentKey: string | null }[]>(server.app, 'GET', '/api/v1/permission/company', {
      token: adminToken,
      query: { lan: 'de' },
    });
    expect(result.body.code).toBe(0);
    const byKey = new Map(result.body.data.map((p) => [p.key, p]));
    expect(byKey.get('meter.delete')).toMatchObject({ name: 'Zähler löschen', parentKey: 'equip.view' });
    expect(byKey.get('smart.acSwitch.edit')).toMatchObject({ parentKey: 'smart.acSwitch' });
    for (const key of ['optimizer.edit', 'meteorological.delete', 'box.edit', 'heatPump.delete']) expect(byKey.has(key), key).toBe(true);
    // Platform keys stay out of a company's reach.
    expect(byKey.has('system.version.edit')).toBe(false);
  });

  it('gives the new device keys to custom roles that could edit or delete devices, and to no read-only role', async () => {
    const editor = await role('Editors', ['equip.view', 'inverter.view', 'inverter.edit']);
    const deleter = await role('Deleters', ['equip.view', 'gateway.view', 'gateway.delete']);
    const viewer = await role('Viewers', ['station.view', 'equip.view']);
    // The database as it was before the keys existed (removing a key drops its grants).
    const added = ['meter', 'optimizer', 'meteorological', 'box', 'heatPump', 'smart.acSwitch'].flatMap((f) => [
      `${f}.edit`,
      `${f}.delete`,
    ]);
    await server.database.db.execute(sql`delete from permissions where key = any(${sql.param(added)}::text[])`);

    await server.repositories.permissions.syncCatalogue();

    const edits = added.filter((k) => k.endsWith('.edit'));
    const deletes = added.filter((k) => k.endsWith('.delete'));
    expect(await keysOf(editor)).toEqual(['equip.view', 'inverter.edit', 'inverter.view', ...edits].sort());
    expect(await keysOf(deleter)).toEqual(['equip.view', 'gateway.delete', 'gateway.view', ...deletes].sort());
    expect(await keysOf(viewer)).toEqual(['equip.view', 'station.view']);

    // Once: a key an administrator later takes away stays away at the next start.
    await server.database.db.execute(sql`delete from role_permissions where role_id = ${editor} and permission_key = 'meter.edit'`);
    await server.repositories.permissions.syncCatalogue();
    expect(await keysOf(editor)).not.toContain('meter.edit');
    // Built-in roles follow packages/contracts as always.
    const admins = await sqlRows(
      server.database.db,
      { key: rolePermissions.permissionKey },
      sql`select permission_key as key from role_permissions rp join roles r on r.id = rp.role_id
          where r.key = 'company_admin' and r.company_id is null`,
    );
    expect(admins.map((r) => r.key)).toEqual(expect.arrayContaining(added));
  });
});
