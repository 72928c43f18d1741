import { Code } from '@sunward/contracts/codes';
import type { PermissionKey } from '@sunward/contracts/permissions';
import { ROLE_GRANTS } from '@sunward/contracts/roles';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computed, nullable, rawRows, sqlRows } from './db/rows.js';
import { devices, gateways, users } from './db/schema.js';
import { plantInput } from './test/api.js';
import { call, signIn } from './test/client.js';
import { startTestServer, type TestServer } from './test/harness.js';
import { requestFor, type SweepMethod, sweptRoutes, usesIds } from './test/route-sweep.js';

/*
 * Tenant isolation (issue 7): every route the server has, enumerated from the running instance (a new
 * route is covered without touching this file), is called by users of company A, a customer of A, an
 * independent guest, each with company B's ids and their neighbours (id ± 1) in the path, the query and
 * the body. Nobody may read B's data (no B marker in any answer), change it (B's rows are identical
 * afterwards) or do what their role does not allow (a permission they lack answers 2); fields a caller may
 * not set (role, companyId, readOnly, owner) are ignored or refused.
 */

// Markers only B's data carries; requests never send them, so an answer holding one is a leak.
const MARKER = /secretb(plant|company|nick|client|role|type|alias)/i;
type Method = SweepMethod;
interface Caller {
  name: string;
  account: string;
  password: string;
  token: string;
  permissions: ReadonlySet<string>;
}

let server: TestServer;
const b = {
  companyId: 0,
  ids: [] as number[],
  sns: [] as string[],
  accounts: [] as string[],
};
const callers: Caller[] = [];

async function caller(name: string, role: Parameters<TestServer['createUser']>[0], companyId?: number): Promise<Caller> {
  const user = await server.createUser(role, `${name}@a.test`, companyId === undefined ? {} : { companyId });
  const token = (await signIn(server.app, user.account, user.password)).access_token;
  return { name, account: user.account, password: user.password, token, permissions: new Set(ROLE_GRANTS[role]) };
}

async function ok<T>(token: string, method: Method, url: string, json?: unknown): Promise<T> {
  const result = await call<T>(server.app, method, url, { token, json });
  if (result.body.code !== 0) throw new Error(`${method} ${url}: ${JSON.stringify(result.body)}`);
  return result.body.data;
}

async function plantFor(token: string, name: string, sn: string): Promise<number> {
  await server.registerGateway(sn, 'KeySecret1');
  return (await ok<{ id: number }>(token, 'POST', '/api/v1/plant', plantInput({ name, gateways: [{ sn, key: 'KeySecret1' }] }))).id;
}

/** Everything of company B, as rows: compared before and after the sweep. */
async function snapshotOfB(): Promise<string> {
  const { db } = server.database;
  const c = b.companyId;
  const parts = await Promise.all([
    rawRows(db, sql`select * from companies where id = ${c}`),
    rawRows(
      db,
      sql`select id, account, password_hash, nickname, email, phone, role_id, company_id, read_only, disabled_at from users
          where company_id = ${c} or id in (select user_id from company_customers where company_id = ${c}) order by id`,
    ),
    rawRows(db, sql`select * from roles where company_id = ${c} order by id`),
    rawRows(db, sql`select * from role_permissions where role_id in (select id from roles where company_id = ${c}) order by 1, 2`),
    rawRows(
      db,
      sql`select id, name, company_id, owner_id, alias, capacity_kwp, tariff, picture, address from plants where company_id = ${c} order by id`,
    ),
    rawRows(db, sql`select id, sn, plant_id, company_id, alias, locked, key_hash from gateways where company_id = ${c} order by id`),
    rawRows(
      db,
      sql`select id, sn, plant_id, gateway_id, alias, main_meter, settings from devices where plant_id in (select id from plants where company_id = ${c}) order by id`,
    ),
    rawRows(db, sql`select * from customer_types where company_id = ${c} order by id`),
    rawRows(db, sql`select * from company_customers where company_id = ${c} order by id`),
    rawRows(
      db,
      sql`select * from company_customer_plants where customer_id in (select id from company_customers where company_id = ${c}) order by 1, 2`,
    ),
    rawRows(db, sql`select * from plant_shares where plant_id in (select id from plants where company_id = ${c}) order by 1, 2`),
    rawRows(
      db,
      sql`select * from company_agents where company_id = ${c} or agent_user_id in (select id from users where company_id = ${c})`,
    ),
    rawRows(db, sql`select * from ac_switches where company_id = ${c} order by id`),
    rawRows(db, sql`select * from company_apps where company_id = ${c} order by app`),
  ]);
  return JSON.stringify(parts);
}

async function callerRows(): Promise<string> {
  const accounts = callers.map((c) => c.account);
  return JSON.stringify(
    await rawRows(
      server.database.db,
      sql`select account, role_id, company_id, read_only from users where account = any(${sql.param(accounts)}::text[]) order by account`,
    ),
  );
}

beforeAll(async () => {
  server = await startTestServer({ COMMAND_TIMEOUT_S: '1' });
  const { db } = server.database;

  // Company A with its administrator, a member, a customer with an assigned plant; an independent guest.
  const companyA = await server.createCompany('Alpha Solar');
  const adminA = await caller('admin-a', 'company_admin', companyA);
  const staffA = await caller('staff-a', 'company_staff', companyA);
  const plantA = await plantFor(adminA.token, 'Alpha Plant', 'ALPHAGW01');
  // A's apps are on, so the sweep reaches past the application centre's gate (4400) into the AC switch, bulb and rule routes.
  for (const app of ['smart_switch', 'smart_bulb', 'smart_rule'])
    await ok(adminA.token, 'POST', `/api/v1/component/apps/${app}/enable`, { enabled: true });
  await ok(adminA.token, 'POST', '/api/v1/customer', {
    account: 'customer-a@a.test',
    password: 'Customer2024x',
    name: 'Alpha Client',
    plantIds: [plantA],
  });
  const customerA: Caller = {
    name: 'customer-a',
    account: 'customer-a@a.test',
    password: 'Customer2024x',
    token: (await signIn(server.app, 'customer-a@a.test', 'Customer2024x')).access_token,
    permissions: new Set(ROLE_GRANTS.customer),
  };
  const guest = await caller('guest', 'guest');
  callers.push(adminA, staffA, customerA, guest);

  // B's ids start far above A's, so a neighbour of a B id (± 1) is B's or nobody's, never the caller's own.
  const sequences = await sqlRows(
    db,
    { seq: nullable(computed.text) },
    sql`select pg_get_serial_sequence(table_schema || '.' || table_name, column_name) as seq from information_schema.columns
        where table_schema = 'public' and is_identity = 'YES'`,
  );
  for (const { seq } of sequences) if (seq) await db.execute(sql`select setval(${seq}, 1000)`);

  // Company B, the one everybody probes: every kind of record the company area and the plants hold.
  b.companyId = await server.createCompany('SecretBCompany');
  const adminB = await server.createUser('company_admin', 'admin-b@b.test', { companyId: b.companyId });
  const adminBToken = (await signIn(server.app, adminB.account, adminB.password)).access_token;
  await ok(adminBToken, 'POST', `/api/v1/company/${b.companyId}/edit`, { name: 'SecretBCompany', contactName: 'SecretBNick Contact' });
  const role = await ok<{ id: number }>(adminBToken, 'POST', '/api/v1/company/role', {
    name: 'SecretBRole',
    permissions: ['station.view'],
  });
  const staff = await ok<{ id: number }>(adminBToken, 'POST', '/api/v1/company/user/add', {
    account: 'staff-b@b.test',
    password: 'StaffB2024x',
    nickname: 'SecretBNick',
    roleId: role.id,
  });
  const plants = [
    await plantFor(adminBToken, 'SecretBPlant One', 'SECRETBGW01'),
    await plantFor(adminBToken, 'SecretBPlant Two', 'SECRETBGW02'),
  ];
  const gatewayRows = await sqlRows(
    db,
    { id: gateways.id, sn: gateways.sn },
    sql`select id, sn from gateways where company_id = ${b.companyId}`,
  );
  for (const g of gatewayRows) await ok(adminBToken, 'POST', `/api/v1/gateway/${g.id}/alias`, { alias: 'SecretBAlias' });
  const deviceIds: number[] = [];
  for (const [i, g] of gatewayRows.entries()) {
    const [row] = await db
      .insert(devices)
      .values({
        sn: `SECRETBINV0${i}`,
        gatewayId: g.id,
        plantId: plants[i] ?? null,
        family: 'inverter',
        protocolId: 'sunspec-inverter',
        alias: 'SecretBAlias',
      })
      .returning({ id: devices.id });
    if (row) deviceIds.push(row.id);
  }
  const type = await ok<{ id: number }>(adminBToken, 'POST', '/api/v1/customerType', { name: 'SecretBType' });
  const subtype = await ok<{ id: number }>(adminBToken, 'POST', '/api/v1/customerType', { name: 'SecretBType Sub', parentId: type.id });
  const customer = await ok<{ id: number }>(adminBToken, 'POST', '/api/v1/customer', {
    account: 'client-b@b.test',
    password: 'ClientB2024x',
    name: 'SecretBClient',
    typeId: subtype.id,
    plantIds: [plants[0]],
  });
  const customerUser = await sqlRows(db, { id: users.id }, sql`select id from users where account = 'client-b@b.test'`);
  // An AC switch in B's first plant (its app enabled), to be probed like the rest.
  await ok(adminBToken, 'POST', '/api/v1/component/apps/smart_switch/enable', { enabled: true });
  const acSwitch = await ok<{ id: number }>(adminBToken, 'POST', '/api/v1/acSwitch/add', {
    sn: 'SECRETBSW01',
    key: 'KeySecret1',
    alias: 'SecretBAlias switch',
    plantId: plants[0],
  });

  const own = [
    b.companyId,
    adminB.id,
    role.id,
    staff.id,
    ...plants,
    ...gatewayRows.map((g) => g.id),
    ...deviceIds,
    type.id,
    subtype.id,
    customer.id,
    acSwitch.id,
  ];
  own.push(...customerUser.map((u) => Number(u.id)));
  b.ids = [...new Set(own.flatMap((id) => [id - 1, id, id + 1]))].sort((x, y) => x - y);
  b.sns = [...gatewayRows.map((g) => g.sn), 'SECRETBINV00', 'SECRETBINV01', 'SECRETBSW01'];
  b.accounts = ['admin-b@b.test', 'staff-b@b.test', 'client-b@b.test'];
}, 300_000);

afterAll(async () => server?.close());

describe('tenant isolation', () => {
  it('lets no one read or change another company’s data, or act beyond their role, on any route', async () => {
    const routes = sweptRoutes(server.app);
    expect(routes.length).toBeGreaterThan(100);
    const before = await snapshotOfB();
    const rolesBefore = await callerRows();
    const leaks: string[] = [];
    const overreach: string[] = [];
    let calls = 0;

    // The callers probe side by side (each in order); a staff member sees what its administrator sees, so
    // it only proves its refusals and the id-free calls.
    const sweep = async (who: Caller) => {
      for (const route of routes) {
        const lacks = route.requires !== 'signed-in' && !who.permissions.has(route.requires as PermissionKey);
        const withIds = usesIds(route);
        // Without the permission one call proves the refusal; otherwise every id of B and its neighbours.
        const ids = lacks || !withIds || who.name === 'staff-a' ? [b.ids[0] ?? 1] : b.ids;
        for (const id of ids) {
          const request = requestFor(b, route, id);
          const response = await server.app.inject({
            method: route.method as Method,
            url: request.url,
            query: request.query,
            headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
            payload: route.method === 'GET' ? undefined : JSON.stringify(request.json),
          });
          calls++;
          if (response.statusCode === 401) {
            // A route ended the caller's own session (sign out everywhere): sign in again and go on, past the
            // sign-in lock the sweep's wrong confirmation passwords set on the account and the address.
            await server.database.db.execute(sql`delete from sign_in_failures`);
            who.token = (await signIn(server.app, who.account, who.password)).access_token;
            continue;
          }
          const label = `${who.name} ${route.method} ${request.url} ${JSON.stringify(request.query)}`;
          if (response.statusCode >= 500) leaks.push(`${label}: HTTP ${response.statusCode}`);
          if (MARKER.test(response.body)) leaks.push(`${label}: answer holds company B data`);
          const json = (response.headers['content-type'] ?? '').toString().includes('json');
          if (!json && response.statusCode === 200 && withIds) leaks.push(`${label}: a file came back`);
          if (lacks) {
            const code = json ? (response.json() as { code: number }).code : undefined;
            if (code !== Code.NO_PERMISSION) overreach.push(`${label}: answered ${code} without ${route.requires}`);
          }
        }
      }
    };
    await Promise.all(callers.map(sweep));

    expect(calls).toBeGreaterThan(routes.length);
    expect(leaks).toEqual([]);
    expect(overreach).toEqual([]);
    expect(await snapshotOfB()).toBe(before);
    // role, companyId and readOnly sent in bodies changed nobody's account.
    expect(await callerRows()).toBe(rolesBefore);
  }, 600_000);
});
