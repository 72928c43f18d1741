import { Code } from '@sunward/contracts/codes';
import { DEVICE_KIND_INFO, DEVICE_KINDS, type DeviceKind } from '@sunward/contracts/devices';
import { PERMISSIONS, type PermissionKey } from '@sunward/contracts/permissions';
import { COMPANY_ASSIGNABLE_PERMISSIONS, ROLE_GRANTS } from '@sunward/contracts/roles';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows, sqlRows } from './db/rows.js';
import { devices, gateways, plantShares } from './db/schema.js';
import type { RouteAccessEntry } from './plugins/auth.js';
import { call, signIn } from './test/client.js';
import { startTestServer, type TestServer } from './test/harness.js';
import { defOf, sampleOf, type ZodDef } from './test/zod-def.js';

/*
 * Read-only roles (issue 15.2): a company member whose custom role holds only view keys, a plant guest and a
 * customer call EVERY route that changes state (enumerated from the running server, so a new route is covered
 * without touching this file) with requests built from the route's own schemas and the company's real ids.
 * Each answers 2 and nothing changes; what these roles could see they still see.
 */

const FAMILY_OF: Record<DeviceKind, { family: string; protocolId: string }> = {
  inverter: { family: 'inverter', protocolId: 'sunspec-inverter-3p' },
  battery: { family: 'battery', protocolId: 'sunspec-battery-bms' },
  meter: { family: 'meter', protocolId: 'sunspec-meter-3p' },
  optimizer: { family: 'optimizer', protocolId: 'sunspec-optimizer' },
  weather_station: { family: 'weather_station', protocolId: 'sunspec-weather-station' },
  combiner_box: { family: 'combiner_box', protocolId: 'sunspec-combiner-box' },
  heat_pump: { family: 'heat_pump', protocolId: 'vendor-heat-pump' },
  ac_switch: { family: 'ac_switch', protocolId: 'vendor-ac-switch' },
};

const VIEW_KEYS: readonly PermissionKey[] = PERMISSIONS.filter(
  (p) => p.kind === 'view' && COMPANY_ASSIGNABLE_PERMISSIONS.includes(p.key),
).map((p) => p.key);

interface Caller {
  name: string;
  token: string;
}

let server: TestServer;
const a = {
  companyId: 0,
  plantId: 0,
  gatewayId: 0,
  gatewaySn: 'READONLYGW01',
  roleId: 0,
  staffId: 0,
  device: {} as Record<DeviceKind, { id: number; sn: string }>,
};
const callers: Caller[] = [];

async function ok<T>(token: string, method: 'GET' | 'POST', url: string, json?: unknown): Promise<T> {
  const result = await call<T>(server.app, method, url, { token, json });
  if (result.body.code !== 0) throw new Error(`${method} ${url}: ${JSON.stringify(result.body)}`);
  return result.body.data;
}

/** Everything of company A and the platform's catalogues, as rows: compared before and after the sweep. */
async function snapshot(): Promise<string> {
  const { db } = server.database;
  const c = a.companyId;
  const queries = [
    sql`select * from companies where id = ${c}`,
    sql`select id, account, password_hash, nickname, email, phone, role_id, company_id, read_only, disabled_at from users order by id`,
    sql`select * from roles order by id`,
    sql`select * from role_permissions order by 1, 2`,
    sql`select id, name, company_id, owner_id, alias, capacity_kwp, tariff, picture, address, timezone from plants order by id`,
    sql`select id, sn, plant_id, company_id, alias, locked, key_hash from gateways order by id`,
    sql`select id, sn, plant_id, gateway_id, alias, main_meter, settings from devices order by id`,
    sql`select * from plant_shares order by 1, 2`,
    sql`select * from customer_types order by id`,
    sql`select * from company_customers order by id`,
    sql`select * from company_agents order by 1`,
    sql`select id, device_id, op, status from device_commands order by id`,
    sql`select * from firmware order by id`,
    sql`select * from system_versions order by id`,
    sql`select * from notices order by id`,
  ];
  const parts = [];
  for (const q of queries) parts.push(await rawRows(db, q));
  return JSON.stringify(parts);
}

// ---- Requests built from each route's own schemas (zod 4 definitions), with company A's ids ----

/** The record a route's :id names: the device of its family, the plant, the gateway, the role or the member. */
function idFor(url: string): number {
  for (const kind of DEVICE_KINDS) if (url.startsWith(`/api/v1/${DEVICE_KIND_INFO[kind].singular}/`)) return a.device[kind].id;
  if (url.startsWith('/api/v1/gateway/')) return a.gatewayId;
  if (url.startsWith('/api/v1/company/role')) return a.roleId;
  if (url.startsWith('/api/v1/company/user')) return a.staffId;
  if (url.startsWith('/api/v1/company/')) return a.companyId;
  return a.plantId;
}

function snFor(url: string): string {
  for (const kind of DEVICE_KINDS) if (url.startsWith(`/api/v1/${DEVICE_KIND_INFO[kind].singular}/`)) return a.device[kind].sn;
  return url.startsWith('/api/v1/gateway') ? a.gatewaySn : a.device.inverter.sn;
}

/** A plausible value for one field: A's records where a reference is expected. */
function sample(def: ZodDef | undefined, key: string, url: string): unknown {
  return sampleOf(def, key, {
    number: (k) => (/plant/i.test(k) ? a.plantId : idFor(url)),
    string: (k) => {
      if (/sn$/i.test(k)) return snFor(url);
      if (/^(account|username)$/i.test(k)) return 'admin-a@a.test';
      if (/id$/i.test(k)) return String(idFor(url));
      return 'Renamed1';
    },
    other: () => idFor(url),
  });
}

function requestFor(route: RouteAccessEntry) {
  const url = route.url.replace(/:(\w+)/g, (_, name: string) => (/sn$/i.test(name) ? snFor(route.url) : String(idFor(route.url))));
  const query = sample(defOf(route.schema?.querystring), '', route.url);
  const queryText =
    query && typeof query === 'object'
      ? Object.fromEntries(
          Object.entries(query as Record<string, unknown>)
            .filter(([, v]) => v !== undefined && typeof v !== 'object')
            .map(([k, v]) => [k, String(v)]),
        )
      : {};
  return { url, query: queryText, json: sample(defOf(route.schema?.body), '', route.url) ?? {} };
}

/** Routes that change something and name an operate or manage key: none of which a read-only role holds. */
function guardedWrites(): RouteAccessEntry[] {
  return server.app.routeAccessTable.filter(
    (r) =>
      r.changesState &&
      r.url.startsWith('/api/') &&
      typeof r.access === 'object' &&
      (r.access.kind === 'operate' || r.access.kind === 'manage'),
  );
}

beforeAll(async () => {
  server = await startTestServer({ COMMAND_TIMEOUT_S: '1' });
  const { db } = server.database;

  a.companyId = await server.createCompany('Alpha Solar');
  const admin = await server.createUser('company_admin', 'admin-a@a.test', { companyId: a.companyId });
  const adminToken = (await signIn(server.app, admin.account, admin.password)).access_token;
  await server.registerGateway(a.gatewaySn, 'KeySecret1');
  a.plantId = (
    await ok<{ id: number }>(adminToken, 'POST', '/api/v1/plant', {
      name: 'Alpha Plant',
      capacityKwp: 10,
      plantType: 1,
      latitude: 48.1,
      longitude: 11.5,
      timezone: 'Europe/Berlin',
      meteringTopology: 'gross',
      gateways: [{ sn: a.gatewaySn, key: 'KeySecret1' }],
      tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.3 },
    })
  ).id;
  const [gateway] = await sqlRows(db, { id: gateways.id }, sql`select id from gateways where sn = ${a.gatewaySn}`);
  a.gatewayId = Number(gateway?.id);
  for (const [i, kind] of DEVICE_KINDS.entries()) {
    const sn = `READONLY${kind.toUpperCase().replace('_', '')}${i}`;
    const [row] = await db
      .insert(devices)
      .values({ sn, gatewayId: a.gatewayId, plantId: a.plantId, alias: 'Original', ...FAMILY_OF[kind] })
      .returning({ id: devices.id });
    if (!row) throw new Error(`no ${kind}`);
    a.device[kind] = { id: row.id, sn };
  }

  // Staff whose custom roles hold only view keys: every view key a company may grant, and the issue's
  // "plants and equipment, view only".
  for (const [name, permissions] of [
    ['All views', VIEW_KEYS],
    ['Equipment viewer', ['station.view', 'equip.view', 'gateway.view', 'inverter.view', 'battery.list.view', 'smart.acSwitch']],
  ] as const) {
    const role = await ok<{ id: number }>(adminToken, 'POST', '/api/v1/company/role', { name, permissions });
    a.roleId = role.id;
    const account = `${name.replace(' ', '-').toLowerCase()}@a.test`;
    const staff = await ok<{ id: number }>(adminToken, 'POST', '/api/v1/company/user/add', {
      account,
      password: 'ViewOnly2024x',
      nickname: name,
      roleId: role.id,
    });
    a.staffId = staff.id;
    callers.push({ name: `staff (${name})`, token: (await signIn(server.app, account, 'ViewOnly2024x')).access_token });
  }

  // The built-in read-only roles: a guest the plant is shared with, and a customer.
  const guest = await server.createUser('guest', 'guest@a.test');
  await db.insert(plantShares).values({ plantId: a.plantId, userId: guest.id, role: 'guest' });
  callers.push({ name: 'guest', token: (await signIn(server.app, guest.account, guest.password)).access_token });
  const customer = await server.createUser('customer', 'customer@a.test');
  callers.push({ name: 'customer', token: (await signIn(server.app, customer.account, customer.password)).access_token });
}, 300_000);

afterAll(async () => server?.close());

describe('read-only roles', () => {
  it('holds no operate or manage key in the roles they have', () => {
    for (const key of [...VIEW_KEYS, ...ROLE_GRANTS.guest, ...ROLE_GRANTS.customer])
      expect(PERMISSIONS.find((p) => p.key === key)?.kind, key).toBe('view');
  });

  it('cannot delete, rename or re-flag a meter with view keys only (issue 15.2)', async () => {
    const staff = callers[1];
    if (!staff) throw new Error('no staff');
    const meter = a.device.meter;
    for (const [url, json] of [
      [`/api/v1/meter/${meter.id}/alias`, { alias: 'Renamed' }],
      [`/api/v1/meter/${meter.id}/main`, { main: true }],
      [`/api/v1/meter/${meter.id}/delete`, undefined],
      ['/api/v1/meter/batchDelete', { ids: [meter.id] }],
    ] as const) {
      const result = await call(server.app, 'POST', url, { token: staff.token, json });
      expect(result.body.code, url).toBe(Code.NO_PERMISSION);
    }
    const [row] = await sqlRows(
      server.database.db,
      { alias: devices.alias, main_meter: devices.mainMeter },
      sql`select alias, main_meter from devices where id = ${meter.id}`,
    );
    expect(row).toEqual({ alias: 'Original', main_meter: false });
  });

  it('lets a guest leave a shared plant, but withdraws nobody else’s share without station.share', async () => {
    const { db } = server.database;
    const owner = await server.createUser('owner', 'owner@solo.test');
    const ownerToken = (await signIn(server.app, owner.account, owner.password)).access_token;
    await server.registerGateway('READONLYSOLO1', 'KeySecret1');
    const plant = await ok<{ id: number }>(ownerToken, 'POST', '/api/v1/plant', {
      name: 'Solo Plant',
      capacityKwp: 5,
      plantType: 1,
      latitude: 48.1,
      longitude: 11.5,
      timezone: 'Europe/Berlin',
      meteringTopology: 'gross',
      gateways: [{ sn: 'READONLYSOLO1', key: 'KeySecret1' }],
      tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.3 },
    });
    const guests = [await server.createUser('guest', 'guest1@solo.test'), await server.createUser('guest', 'guest2@solo.test')];
    for (const g of guests) await db.insert(plantShares).values({ plantId: plant.id, userId: g.id, role: 'guest' });
    // The owner's account is given a role with view keys only (one of the company's view-only roles).
    await db.execute(sql`update users set role_id = ${a.roleId} where id = ${owner.id}`);
    const [first, second] = guests;
    if (!first || !second) throw new Error('no guests');

    const withdraw = await call(server.app, 'POST', `/api/v1/plant/${plant.id}/cancelShare`, {
      token: ownerToken,
      json: { userId: first.id },
    });
    expect(withdraw.body.code).toBe(Code.NO_PERMISSION);
    const guestToken = (await signIn(server.app, second.account, second.password)).access_token;
    const leave = await call(server.app, 'POST', `/api/v1/plant/${plant.id}/cancelShare`, {
      token: guestToken,
      json: { userId: second.id },
    });
    expect(leave.body.code).toBe(0);
    const left = await sqlRows(
      db,
      { user_id: plantShares.userId },
      sql`select user_id from plant_shares where plant_id = ${plant.id} order by 1`,
    );
    expect(left.map((r) => Number(r.user_id))).toEqual([first.id]);
  });

  it('keeps a read-only account (a shared login) from changing its own account, but lets it mark messages and pick a theme', async () => {
    const { db } = server.database;
    const shared = await server.createUser('owner', 'shared@demo.test');
    await db.execute(sql`update users set read_only = true where id = ${shared.id}`);
    const token = (await signIn(server.app, shared.account, shared.password)).access_token;
    const hashBefore = await rawRows(db, sql`select password_hash, nickname from users where id = ${shared.id}`);
    const refused = [
      [`/api/v1/user/${shared.id}/pwd`, { oldPassword: shared.password, password: 'Changed-Password-9' }],
      [`/api/v1/user/${shared.id}`, { nickname: 'Taken over' }],
      ['/api/v1/user/twoFactor/setup', {}],
      ['/api/v1/user/notify', { enabled: false }],
      ['/api/v1/company/add', { name: 'Shared Login Company' }],
    ] as const;
    for (const [url, json] of refused) {
      const result = await call(server.app, 'POST', url, { token, json });
      expect(result.body.code, url).toBe(Code.NO_PERMISSION);
    }
    expect(await rawRows(db, sql`select password_hash, nickname from users where id = ${shared.id}`)).toEqual(hashBefore);
    for (const [url, json] of [
      ['/api/v1/message/update/states', { state: 1 }],
      ['/api/v1/user/personalized', { styleType: 'dark' }],
    ] as const) {
      const result = await call(server.app, 'POST', url, { token, json });
      expect(result.body.code, url).toBe(0);
    }
  });

  it('is refused (2) on every route that changes state, and nothing changes', async () => {
    const routes = guardedWrites();
    expect(routes.length).toBeGreaterThan(100);
    // Every device family's alias and delete calls are among them, each with its own manage key.
    for (const kind of DEVICE_KINDS) {
      const { singular } = DEVICE_KIND_INFO[kind];
      for (const path of [`/api/v1/${singular}/:id/alias`, `/api/v1/${singular}/:id/delete`, `/api/v1/${singular}/batchDelete`]) {
        const route = routes.find((r) => r.url === path && r.method === 'POST');
        expect(route?.access, path).toMatchObject({ kind: 'manage' });
      }
    }
    const before = await snapshot();
    const answered: string[] = [];
    for (const who of callers)
      for (const route of routes) {
        const request = requestFor(route);
        const response = await server.app.inject({
          method: route.method as 'GET' | 'POST' | 'DELETE',
          url: request.url,
          query: request.query,
          headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
          payload: route.method === 'GET' ? undefined : JSON.stringify(request.json),
        });
        const code = (response.headers['content-type'] ?? '').toString().includes('json')
          ? (response.json() as { code: number }).code
          : `HTTP ${response.statusCode}`;
        if (code !== Code.NO_PERMISSION) answered.push(`${who.name} ${route.method} ${request.url}: ${code}`);
      }
    expect(answered).toEqual([]);
    expect(await snapshot()).toBe(before);
  }, 300_000);

  it('still sees what view keys show: plants, every device family, its detail, meter settings, events', async () => {
    const [allViews, equipmentViewer, guest] = callers;
    if (!allViews || !equipmentViewer || !guest) throw new Error('no callers');
    for (const who of [allViews, equipmentViewer, guest]) {
      const plants = await ok<{ total: number }>(who.token, 'GET', '/api/v1/plants');
      expect(plants.total, who.name).toBe(1);
      await ok(who.token, 'GET', `/api/v1/plant/${a.plantId}`);
      for (const kind of DEVICE_KINDS) {
        const { plural, singular } = DEVICE_KIND_INFO[kind];
        const page = await ok<{ total: number }>(who.token, 'GET', `/api/v1/${plural}`);
        expect(page.total, `${who.name} ${plural}`).toBe(1);
        await ok(who.token, 'GET', `/api/v1/${singular}/${a.device[kind].sn}`);
        await ok(who.token, 'GET', `/api/v1/${singular}/${a.device[kind].sn}/realtime`);
      }
      await ok(who.token, 'GET', `/api/v1/meter/${a.device.meter.sn}/settings`);
      await ok(who.token, 'GET', `/api/v1/gateway/${a.gatewaySn}`);
    }
    await ok(allViews.token, 'GET', '/api/v1/events');
    await ok(allViews.token, 'GET', '/api/v1/company/info');
    await ok(allViews.token, 'GET', '/api/v1/company/user/list');
    await ok(allViews.token, 'GET', '/api/v1/customers');
  });
});
