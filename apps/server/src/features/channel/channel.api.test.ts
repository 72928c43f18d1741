import type { ChannelTree } from '@sunward/contracts/channel';
import { Code } from '@sunward/contracts/codes';
import type { PlantPage } from '@sunward/contracts/plants';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows } from '../../db/rows.js';
import { deviceEvents, devices } from '../../db/schema.js';
import { createPlant } from '../../test/api.js';
import { call, signIn } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { requestFor, type SweepMethod, sweptRoutes, usesIds } from '../../test/route-sweep.js';
import { createMessagesRepository } from '../messages/messages.repository.js';

/*
 * The channel hierarchy (issue 24): maker M → distributors D1, D2 → installers I1 (under D1), I2 (under
 * D2) → owner O1 (under I1). Each company has one plant named after it. A company sees and operates its
 * subtree's plants and nothing else: a sweep of every route (the tenant sweep's walk) by each company's
 * administrator, aimed at every plant, gateway and device outside its subtree, finds none of their names
 * in any answer and changes none of their rows.
 */

const TREE = { M: null, D1: 'M', D2: 'M', I1: 'D1', I2: 'D2', O1: 'I1' } as const;
type Name = keyof typeof TREE;
const KIND: Record<Name, string> = { M: 'maker', D1: 'distributor', D2: 'distributor', I1: 'installer', I2: 'installer', O1: 'owner' };
const NAMES = Object.keys(TREE) as Name[];
const PASSWORD = 'Channel2024x';
/** Whom each sweeping level's requests aim at: its parent, and a company in another branch (a sibling's child). */
const AIM = { D1: ['M', 'I2'], D2: ['M', 'O1'], I1: ['D1', 'I2'], O1: ['I1', 'D2'] } as const satisfies Record<
  string,
  readonly [Name, Name]
>;

interface Member {
  companyId: number;
  account: string;
  token: string;
  plantId: number;
  gatewayId: number;
  gatewaySn: string;
  deviceId: number;
  deviceSn: string;
}

let server: TestServer;
const at = {} as Record<Name, Member>;

const plantName = (n: Name) => `ChanPlant${n}Secret`;
/** The companies of n's subtree. */
function subtree(n: Name): Name[] {
  return [n, ...NAMES.filter((c) => TREE[c] === n).flatMap(subtree)];
}

async function ok<T>(token: string, method: SweepMethod, url: string, json?: unknown): Promise<T> {
  const result = await call<T>(server.app, method, url, { token, json });
  if (result.body.code !== 0) throw new Error(`${method} ${url}: ${JSON.stringify(result.body)}`);
  return result.body.data;
}

async function plantsOf(token: string) {
  const page = await ok<PlantPage>(token, 'GET', '/api/v1/plants?size=100');
  return page.records;
}

/**
 * The tree's original rows (each level's plant, gateway and device, the companies' place in the tree), one
 * JSON text per row: compared before and after the sweep. A level may change its own settings and add
 * plants and companies of its own; what existed must stay as it was.
 */
async function snapshot(): Promise<string[]> {
  const { db } = server.database;
  const ids = (key: 'plantId' | 'gatewayId' | 'deviceId') => sql.param(NAMES.map((n) => at[n][key]));
  const parts = await Promise.all([
    rawRows(
      db,
      sql`select id, name, company_id, owner_id, alias, capacity_kwp, tariff, address from plants where id = any(${ids('plantId')}::int[]) order by id`,
    ),
    rawRows(
      db,
      sql`select id, sn, plant_id, company_id, alias, key_hash from gateways where id = any(${ids('gatewayId')}::int[]) order by id`,
    ),
    rawRows(
      db,
      sql`select id, sn, plant_id, gateway_id, alias, settings from devices where id = any(${ids('deviceId')}::int[]) order by id`,
    ),
    rawRows(
      db,
      sql`select id, name, parent_id, kind from companies where id = any(${sql.param(NAMES.map((n) => at[n].companyId))}::int[]) order by id`,
    ),
  ]);
  return parts.flat().map((row) => JSON.stringify(row));
}

/** Every company back to no alarm routing and no branding delegation (the sweep may have switched its own). */
async function resetSettings() {
  await server.database.db.execute(sql`update companies set notify_subtree = false, child_branding = false`);
}

beforeAll(async () => {
  server = await startTestServer({ COMMAND_TIMEOUT_S: '1' });
  const { db } = server.database;
  for (const [i, n] of NAMES.entries()) {
    const parent = TREE[n];
    const account = `admin-${n.toLowerCase()}@chan.test`;
    let companyId: number;
    let password = PASSWORD;
    if (parent === null) {
      companyId = await server.createCompany('Chan Maker');
      password = (await server.createUser('company_admin', account, { companyId })).password;
    } else {
      companyId = (
        await ok<{ id: number }>(at[parent].token, 'POST', '/api/v1/channel/company', {
          name: `Chan ${n}`,
          kind: KIND[n],
          adminAccount: account,
          adminPassword: PASSWORD,
          adminNickname: `Admin ${n}`,
        })
      ).id;
    }
    const token = (await signIn(server.app, account, password)).access_token;
    // The smart switch app on, so the sweep reaches past the application centre's gate (4400) into the AC switch routes.
    await ok(token, 'POST', '/api/v1/component/apps/smart_switch/enable', { enabled: true });
    const plant = await createPlant(server, token, { name: plantName(n) });
    const [device] = await db
      .insert(devices)
      .values({ sn: `CHANINV${i}`, gatewayId: plant.gateway.id, plantId: plant.id, family: 'inverter', protocolId: 'sunspec-inverter' })
      .returning({ id: devices.id });
    if (!device) throw new Error('device not inserted');
    // What the ingest keeps on each plant (power, today's energy, status), different per plant; two open alarms in O1.
    await db.execute(
      sql`update plants set power_w = ${1000 * (i + 1)}, energy_today_wh = ${5000 * (i + 1)}, status = ${i % 2 === 0 ? 1 : 2} where id = ${plant.id}`,
    );
    if (n === 'O1' || n === 'I2')
      await db.insert(deviceEvents).values({ deviceId: device.id, plantId: plant.id, code: 100 + i, level: 'fault', openedAt: new Date() });
    at[n] = {
      companyId,
      account,
      token,
      plantId: plant.id,
      gatewayId: plant.gateway.id,
      gatewaySn: plant.gateway.sn,
      deviceId: device.id,
      deviceSn: `CHANINV${i}`,
    };
  }
}, 300_000);

afterAll(async () => server?.close());

describe('channel hierarchy', () => {
  it('builds the tree: a child only of a kind below its parent, names and accounts unique, the parent never changes', async () => {
    const refused = await call(server.app, 'POST', '/api/v1/channel/company', {
      token: at.I1.token,
      json: { name: 'Chan Upward', kind: 'distributor', adminAccount: 'up@chan.test', adminPassword: PASSWORD, adminNickname: 'Up' },
    });
    expect(refused.body.code).toBe(Code.VALIDATION);
    const ownerChild = await call(server.app, 'POST', '/api/v1/channel/company', {
      token: at.O1.token,
      json: { name: 'Chan Below Owner', kind: 'owner', adminAccount: 'below@chan.test', adminPassword: PASSWORD, adminNickname: 'Below' },
    });
    expect(ownerChild.body.code).toBe(Code.VALIDATION);
    const duplicate = await call(server.app, 'POST', '/api/v1/channel/company', {
      token: at.M.token,
      json: { name: 'Chan D1', kind: 'distributor', adminAccount: 'dup@chan.test', adminPassword: PASSWORD, adminNickname: 'Dup' },
    });
    expect(duplicate.body.code).toBe(Code.COMPANY_NAME_DUPLICATE);
    const taken = await call(server.app, 'POST', '/api/v1/channel/company', {
      token: at.M.token,
      json: { name: 'Chan D3', kind: 'distributor', adminAccount: at.I2.account, adminPassword: PASSWORD, adminNickname: 'Dup' },
    });
    expect(taken.body.code).toBe(Code.ACCOUNT_EXISTS);
    // Nothing was stored by the refusals; the company edit cannot move a company (parentId is ignored).
    const before = await snapshot();
    await call(server.app, 'POST', `/api/v1/company/${at.M.companyId}/edit`, {
      token: at.M.token,
      json: { name: 'Chan Maker', parentId: at.O1.companyId },
    });
    expect(await snapshot()).toEqual(before);
  });

  it('shows each level exactly its subtree’s plants: the parent its children’s, never a sibling’s or the parent’s own', async () => {
    for (const n of NAMES) {
      const names = (await plantsOf(at[n].token)).map((p) => p.name).sort();
      expect(names, n).toEqual(subtree(n).map(plantName).sort());
      // A parent operates its children's plants (not manage); its own it manages.
      for (const p of await plantsOf(at[n].token)) expect(p.access, `${n} ${p.name}`).toBe(p.name === plantName(n) ? 'manage' : 'operate');
    }
    // A child asking for its parent's plant, a sibling's or a sibling's child's: as if it did not exist.
    for (const [who, other] of [
      ['D1', 'M'],
      ['D1', 'D2'],
      ['D1', 'I2'],
      ['I1', 'I2'],
      ['O1', 'I1'],
    ] as const) {
      const answer = await call(server.app, 'GET', `/api/v1/plant/${at[other].plantId}`, { token: at[who].token });
      expect(answer.body.code, `${who} → ${other}`).toBe(Code.PLANT_NOT_FOUND);
    }
    const detail = await call<{ name: string }>(server.app, 'GET', `/api/v1/plant/${at.O1.plantId}`, { token: at.M.token });
    expect(detail.body.data.name).toBe(plantName('O1'));
  });

  it('lets no level reach outside its subtree on any route', async () => {
    const routes = sweptRoutes(server.app);
    expect(routes.length).toBeGreaterThan(100);
    const before = await snapshot();
    const leaks: string[] = [];
    let calls = 0;
    const sweep = async (n: keyof typeof AIM) => {
      const outside = NAMES.filter((c) => !subtree(n).includes(c));
      const marker = new RegExp(outside.map((c) => plantName(c)).join('|'), 'i');
      // Requests aim at two companies outside: the level's parent and one in another branch (each sweep would
      // take minutes more aimed at all of them; the one subtree rule answers every pair alike). Answers are
      // still searched for every outside plant's name.
      const aimed = AIM[n];
      const ids = [...new Set(aimed.flatMap((c) => [at[c].plantId, at[c].gatewayId, at[c].deviceId]))];
      const target = {
        companyId: at[aimed[0]].companyId,
        sns: aimed.flatMap((c) => [at[c].gatewaySn, at[c].deviceSn]),
        accounts: aimed.map((c) => at[c].account),
      };
      let token = at[n].token;
      for (const route of routes) {
        for (const id of usesIds(route) ? ids : [ids[0] ?? 1]) {
          const request = requestFor(target, route, id);
          const response = await server.app.inject({
            method: route.method as SweepMethod,
            url: request.url,
            query: request.query,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            payload: route.method === 'GET' ? undefined : JSON.stringify(request.json),
          });
          calls++;
          if (response.statusCode === 401) {
            // A route ended the caller's own session (sign out everywhere) after wrong confirmation passwords
            // of the sweep locked the account: lift that lock, sign in again and go on.
            await server.database.db.execute(sql`delete from sign_in_failures`);
            token = (await signIn(server.app, at[n].account, PASSWORD)).access_token;
            at[n].token = token;
            continue;
          }
          const label = `${n} ${route.method} ${request.url} ${JSON.stringify(request.query)}`;
          if (response.statusCode >= 500) leaks.push(`${label}: HTTP ${response.statusCode}`);
          if (marker.test(response.body)) leaks.push(`${label}: answer holds ${response.body.match(marker)?.[0]}`);
        }
      }
    };
    // The maker sees everything; a distributor, its sibling, an installer and an owner probe what lies outside
    // their subtrees (the parent's own plant, siblings, siblings' children).
    await Promise.all((['D1', 'D2', 'I1', 'O1'] as const).map(sweep));
    expect(calls).toBeGreaterThan(routes.length * 4);
    expect(leaks).toEqual([]);
    const after = await snapshot();
    expect(after.filter((row) => !before.includes(row))).toEqual([]);
  }, 1_500_000);

  it('rolls up counts per subtree that equal the sums of each level’s plant list', async () => {
    const tree = await ok<ChannelTree>(at.M.token, 'GET', '/api/v1/channel/tree');
    expect(tree.nodes.map((x) => x.name)).toEqual(['Chan Maker', 'Chan D1', 'Chan I1', 'Chan O1', 'Chan D2', 'Chan I2']);
    expect(tree.childKinds).toEqual(['distributor', 'installer', 'owner']);
    for (const n of NAMES) {
      const node = tree.nodes.find((x) => x.id === at[n].companyId);
      const list = await plantsOf(at[n].token);
      expect(node?.subtree, n).toEqual({
        plants: list.length,
        devices: list.length,
        online: list.filter((p) => p.status !== 2).length,
        openAlarms: subtree(n).filter((c) => c === 'O1' || c === 'I2').length,
        powerW: list.reduce((s, p) => s + (p.powerW ?? 0), 0),
        energyTodayWh: list.reduce((s, p) => s + (p.energyTodayWh ?? 0), 0),
      });
    }
    // A child's tree starts at itself; an owner has no kinds below it.
    const d2 = await ok<ChannelTree>(at.D2.token, 'GET', '/api/v1/channel/tree');
    expect(d2.nodes.map((x) => x.name)).toEqual(['Chan D2', 'Chan I2']);
    expect((await ok<ChannelTree>(at.O1.token, 'GET', '/api/v1/channel/tree')).childKinds).toEqual([]);
  });

  it('routes alarms of an owner’s plant to the levels above only when they ask for their subtree’s', async () => {
    await resetSettings();
    const messages = createMessagesRepository(server.database.db);
    const accounts = async () => {
      const ids = (await messages.recipients([at.O1.plantId])).map((r) => r.userId);
      const rows = await rawRows(
        server.database.db,
        sql`select account from users where id = any(${sql.param(ids)}::int[]) and account like '%@chan.test'`,
      );
      return rows.map((r) => String(r.account)).sort();
    };
    expect(await accounts()).toEqual([at.O1.account]);
    await ok(at.I1.token, 'POST', '/api/v1/channel/settings', { childBranding: false, notifySubtree: true });
    await ok(at.M.token, 'POST', '/api/v1/channel/settings', { childBranding: false, notifySubtree: true });
    expect(await accounts()).toEqual([at.I1.account, at.M.account, at.O1.account].sort());
    // A sibling subtree asking for its subtree's alarms is still not told about O1.
    await ok(at.D2.token, 'POST', '/api/v1/channel/settings', { childBranding: false, notifySubtree: true });
    expect(await accounts()).not.toContain(at.D2.account);
  });

  it('hands the maker’s branding down unless a level lets its children brand themselves', async () => {
    const brand = async (n: Name) =>
      (await ok<{ userid: { company: { themeColor: string } } }>(at[n].token, 'GET', '/api/v1/user')).userid.company.themeColor;
    await resetSettings();
    await ok(at.M.token, 'POST', `/api/v1/company/${at.M.companyId}/themeColor`, { themeColor: '#1A7F37' });
    await ok(at.D1.token, 'POST', `/api/v1/company/${at.D1.companyId}/themeColor`, { themeColor: '#0055AA' });
    // M does not allow its children their own brand: D1, I1 and O1 show M's colour.
    for (const n of ['D1', 'I1', 'O1'] as const) expect(await brand(n), n).toBe('#1A7F37');
    await ok(at.M.token, 'POST', '/api/v1/channel/settings', { childBranding: true, notifySubtree: true });
    expect(await brand('D1')).toBe('#0055AA');
    // I1 inherits its nearest branded ancestor (D1); D2 set nothing of its own and keeps M's.
    expect(await brand('I1')).toBe('#0055AA');
    expect(await brand('D2')).toBe('#1A7F37');
  });

  it('offers an image authorised for a company only within that company’s subtree', async () => {
    const insert = (name: string, version: string, companyId: number | null) =>
      server.database.db.execute(sql`insert into firmware (name, manufacturer, product, sw_version, type, mode, file_name, size, md5, sha256,
          signature, storage_key, enabled, company_id)
        values (${name}, 'Chan', 'Inverter', ${version}, 'inverter', 'remote', 'fw.bin', 1, 'x', 'x', 'x', 'x', true, ${companyId})`);
    await insert('Chan D1 image', '9.1.0', at.D1.companyId);
    await insert('Chan public image', '9.2.0', null);
    const names = async (n: Name) =>
      (await ok<{ name: string }[]>(at[n].token, 'GET', '/api/v1/firmware/options?type=inverter')).map((o) => o.name).sort();
    for (const n of ['D1', 'I1', 'O1'] as const) expect(await names(n), n).toEqual(['Chan D1 image', 'Chan public image']);
    for (const n of ['M', 'D2', 'I2'] as const) expect(await names(n), n).toEqual(['Chan public image']);
    // The server checks it again: an upgrade outside the subtree naming the image is refused on firmId.
    const [image] = await rawRows(server.database.db, sql`select id from firmware where name = 'Chan D1 image'`);
    const upgrade = (n: Name) =>
      call(server.app, 'POST', `/api/v1/inverter/${at[n].deviceSn}/upgrade`, {
        token: at[n].token,
        json: { firmId: Number(image?.id), password: PASSWORD, idempotencyKey: `chan-upgrade-${n}` },
      });
    const fields = (body: { data: unknown }) => ((body.data as { errors?: { field: string }[] } | null)?.errors ?? []).map((e) => e.field);
    for (const n of ['M', 'D2', 'I2'] as const) {
      const refused = await upgrade(n);
      expect(refused.body.code, n).toBe(Code.VALIDATION);
      expect(fields(refused.body), n).toEqual(['firmId']);
    }
    // Inside the subtree the image is taken (the offline device is what stops it here).
    const inside = await upgrade('I1');
    expect(fields(inside.body)).not.toContain('firmId');
  });
});
