import { Code } from '@sunward/contracts/codes';
import {
  DISPLAY_TOKEN_HEADER,
  type DisplayCompany,
  type DisplayData,
  type DisplayLinkCreated,
  type DisplayLinkRow,
} from '@sunward/contracts/fullscreen';
import { addDays, localDayOf, localDayStart, type PlantRealtime } from '@sunward/contracts/plant-energy';
import type { PlantPage } from '@sunward/contracts/plants';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceEvents, devices, displayLinks, plantEnergyDaily, users } from '../../db/schema.js';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { call, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';

const ZONE = 'Africa/Abidjan';
const HOUR = 3_600_000;
const today = localDayOf(Date.now(), ZONE);
const yesterday = addDays(today, -1);
const at = (day: string, hour: number) => localDayStart(day, ZONE) + hour * HOUR;
const nowTs = () => Math.max(Date.now() - 5000, localDayStart(today, ZONE) + 1000);

let server: TestServer;
let admin: string;
let ownerA: { token: string; id: number };
let memberA: string;
let ownerB: string;
const plantsA: number[] = [];
let plantB: number;
const gateways: TestGateway[] = [];

const { get, post } = apiClient(
  () => server.app,
  () => admin,
);

/** A plant with one inverter: `wh` lifetime yesterday at 9 and 15, then `nowWh` and `w` now. */
async function reportingPlant(token: string, companyId: number, name: string, sn: string, capacityKwp: number, w: number, whs: number[]) {
  const plant = await createPlant(
    server,
    token,
    { name, capacityKwp, timezone: ZONE, latitude: 5.3 + plantsA.length, longitude: -4 + plantsA.length },
    companyId,
  );
  await server.database.db.insert(devices).values({
    sn,
    protocolId: 'sunspec-inverter-1p',
    family: 'inverter',
    model: 'sunspec-inverter-1p',
    plantId: plant.id,
    gatewayId: plant.gateway.id,
  });
  const gw = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
  gateways.push(gw);
  const [a = 0, b = 0, c = 0] = whs;
  await gw.report(at(yesterday, 9), [{ sn, proto: 'sunspec-inverter-1p', values: { W: 1000, WH: a, St: 4 } }]);
  await gw.report(at(yesterday, 15), [{ sn, proto: 'sunspec-inverter-1p', values: { W: 2000, WH: b, St: 4 } }]);
  await gw.report(nowTs(), [{ sn, proto: 'sunspec-inverter-1p', values: { W: w, WH: c, St: 4 } }]);
  return plant.id;
}

const dataByLink = (token: string) =>
  call<DisplayData>(server.app, 'GET', '/api/v1/fullscreen/link/data', { headers: { [DISPLAY_TOKEN_HEADER]: token } });

beforeAll(async () => {
  server = await startTestServer();
  admin = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const companyA = await server.createCompany('Display Company A');
  const companyB = await server.createCompany('Display Company B');
  const a = await signedInUser(server, 'company_admin', companyA);
  ownerA = { token: a.token, id: a.id };
  memberA = (await signedInUser(server, 'company_admin', companyA)).token;
  ownerB = (await signedInUser(server, 'company_admin', companyB)).token;
  plantsA.push(await reportingPlant(ownerA.token, companyA, 'Display Alpha', 'DSIN000001', 10, 3000, [5000, 9000, 11_000]));
  plantsA.push(await reportingPlant(ownerA.token, companyA, 'Display Beta', 'DSIN000002', 20, 1500, [40_000, 41_000, 41_500]));
  plantB = await reportingPlant(ownerB, companyB, 'Display Gamma', 'DSIN000003', 5, 800, [1000, 2000, 2500]);
  await server.telemetry.pipeline.drain();
  const [inverter] = await server.database.db.select({ id: devices.id }).from(devices).where(eq(devices.sn, 'DSIN000002'));
  if (!inverter) throw new Error('no inverter');
  await server.database.db
    .insert(deviceEvents)
    .values({ deviceId: inverter.id, plantId: plantsA[1] as number, code: 1001, level: 'fault', openedAt: new Date(at(today, 0)) });
}, 120_000);

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await server?.close();
});

async function createLink(token: string, body: object) {
  return post<DisplayLinkCreated>('/api/v1/fullscreen/links', body, token);
}

describe('the display figures', () => {
  it('agree to the watt-hour with the plant list and the plant overviews', async () => {
    const data = await get<DisplayData>('/api/v1/fullscreen/data', ownerA.token);
    expect(data.code).toBe(0);
    const list = await get<PlantPage>('/api/v1/plants?size=100', ownerA.token);
    const rows = list.data.records;
    expect(rows.map((r) => r.id).sort()).toEqual([...plantsA].sort());
    const sum = (f: (r: (typeof rows)[number]) => number | null) => rows.reduce((s, r) => s + (f(r) ?? 0), 0);
    const k = data.data.kpi;
    expect(k.plantCount).toBe(2);
    expect(k.powerW).toBe(sum((r) => r.powerW));
    expect(k.energyTodayWh).toBe(sum((r) => r.energyTodayWh));
    expect(k.energyTotalWh).toBe(sum((r) => r.energyTotalWh));
    expect(k.powerW).toBe(4500);
    const overviews = await Promise.all(plantsA.map((id) => get<PlantRealtime>(`/api/v1/plant/${id}/realtime`, ownerA.token)));
    expect(k.energyMonthWh).toBe(overviews.reduce((s, o) => s + o.data.energyMonthWh, 0));
    expect(k.energyYearWh).toBe(overviews.reduce((s, o) => s + o.data.energyYearWh, 0));
    expect(k.co2Kg).toBeCloseTo((k.energyTotalWh / 1000) * 0.475, 6);
    // Coordinates for the map, specific yield as the list shows it, the busiest plant's energy flow.
    const alpha = data.data.plants.find((p) => p.id === plantsA[0]);
    expect(alpha).toMatchObject({ latitude: 5.3, longitude: -4, status: 1 });
    expect(alpha?.specificYield).toBe(rows.find((r) => r.id === plantsA[0])?.specificYield);
    expect(data.data.top[0]?.id).toBe(rows.slice().sort((x, y) => (y.specificYield ?? 0) - (x.specificYield ?? 0))[0]?.id);
    expect(data.data.flow?.plantId).toBe(plantsA[0]);
    expect(data.data.flow?.flow.pvW).toBe(3000);
    expect(data.data.alarms.total).toBe(1);
    expect(data.data.alarms.infos[0]).toMatchObject({ code: 1001, level: 'fault', plantName: 'Display Beta', status: 'active' });
    expect(data.data.statusCounts.total).toBe(2);
  });

  it('sum month and year over the fleet in one query, each plant by its own local calendar, as its overview does', async () => {
    // Plants 25 hours apart and one a quarter-hour off: days around today, the month's and the year's first.
    const expected = new Map<number, { month: number; year: number }>();
    for (const [i, timezone] of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kathmandu'].entries()) {
      const plant = await createPlant(server, admin, { name: `Calendar ${i}`, timezone, latitude: 10 + i, longitude: 10 + i });
      const day = localDayOf(Date.now(), timezone);
      const month = `${day.slice(0, 7)}-01`;
      const year = `${day.slice(0, 4)}-01-01`;
      const days = [...new Set([day, addDays(day, -1), addDays(day, 1), month, addDays(month, -1), year, addDays(year, -1)])];
      const rows = days.map((d, k) => ({ plantId: plant.id, day: d, energyWh: 1000 * (i + 1) + 10 * k + 0.25 }));
      await server.database.db.insert(plantEnergyDaily).values(rows);
      const within = (from: string) => rows.filter((r) => r.day >= from && r.day <= day).reduce((a, r) => a + r.energyWh, 0);
      expected.set(plant.id, { month: within(month), year: within(year) });
    }
    const data = await get<DisplayData>('/api/v1/fullscreen/data', admin);
    expect(data.code).toBe(0);
    const rows = (await get<PlantPage>('/api/v1/plants?size=100', admin)).data.records;
    expect(data.data.kpi.plantCount).toBe(rows.length);
    const overviews = await Promise.all(rows.map((r) => get<PlantRealtime>(`/api/v1/plant/${r.id}/realtime`, admin)));
    for (const [id, sums] of expected) {
      const overview = overviews[rows.findIndex((r) => r.id === id)]?.data;
      expect([overview?.energyMonthWh, overview?.energyYearWh]).toEqual([sums.month, sums.year]);
    }
    const month = overviews.reduce((s, o) => s + o.data.energyMonthWh, 0);
    const year = overviews.reduce((s, o) => s + o.data.energyYearWh, 0);
    expect(month).toBeGreaterThan(0);
    expect(Math.abs(data.data.kpi.energyMonthWh - month)).toBeLessThan(1);
    expect(Math.abs(data.data.kpi.energyYearWh - year)).toBeLessThan(1);
  });

  it('show another plant’s energy flow when asked, only among the viewer’s plants', async () => {
    const beta = await get<DisplayData>(`/api/v1/fullscreen/data?flowPlantId=${plantsA[1]}`, ownerA.token);
    expect(beta.data.flow?.plantName).toBe('Display Beta');
    const other = await get<DisplayData>(`/api/v1/fullscreen/data?flowPlantId=${plantB}`, ownerA.token);
    expect(other.data.flow?.plantId).not.toBe(plantB);
  });
});

describe('display links', () => {
  it('open the company display without a session, showing only that company, and record their use', async () => {
    const created = await createLink(ownerA.token, { name: 'Lobby', scope: 'company', expiresInDays: 30 });
    expect(created.code).toBe(0);
    const { token, link } = created.data;
    expect(link).toMatchObject({ name: 'Lobby', scope: 'company', state: 'active', lastUsedAt: null });
    const stored = await server.database.db.select().from(displayLinks).where(eq(displayLinks.id, link.id));
    expect(stored[0]?.tokenHash).not.toBe(token);
    const data = await dataByLink(token);
    expect(data.body.code).toBe(0);
    expect(data.body.data.title).toBe('Lobby');
    expect(data.body.data.plants.map((p) => p.id).sort()).toEqual([...plantsA].sort());
    const signedIn = await get<DisplayData>('/api/v1/fullscreen/data', ownerA.token);
    expect(data.body.data.kpi).toEqual(signedIn.data.kpi);
    const list = await get<DisplayLinkRow[]>('/api/v1/fullscreen/links', ownerA.token);
    const row = list.data.find((l) => l.id === link.id);
    expect(row?.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(list.data)).not.toContain(token);
    // A fellow member sees the company's link; another company does not.
    expect((await get<DisplayLinkRow[]>('/api/v1/fullscreen/links', memberA)).data.some((l) => l.id === link.id)).toBe(true);
    expect((await get<DisplayLinkRow[]>('/api/v1/fullscreen/links', ownerB)).data.some((l) => l.id === link.id)).toBe(false);
  });

  it('scoped to chosen plants show those only, and never a plant the creator does not see', async () => {
    const refused = await createLink(ownerA.token, { name: 'Theirs', scope: 'plants', plantIds: [plantsA[0], plantB], expiresInDays: 1 });
    expect(refused.code).toBe(Code.PLANT_NOT_FOUND);
    const empty = await createLink(ownerA.token, { name: 'None', scope: 'plants', plantIds: [], expiresInDays: 1 });
    expect(empty.code).toBe(Code.VALIDATION);
    const created = await createLink(ownerA.token, { name: 'Alpha only', scope: 'plants', plantIds: [plantsA[0]], expiresInDays: 1 });
    expect(created.code).toBe(0);
    const data = await dataByLink(created.data.token);
    expect(data.body.data.plants.map((p) => p.id)).toEqual([plantsA[0]]);
    const list = await get<PlantPage>('/api/v1/plants?size=100', ownerA.token);
    const alpha = list.data.records.find((r) => r.id === plantsA[0]);
    expect(data.body.data.kpi.energyTodayWh).toBe(alpha?.energyTodayWh);
    expect(data.body.data.kpi.powerW).toBe(alpha?.powerW);
    expect(data.body.data.alarms.total).toBe(0);
  });

  it('stop working when revoked, only by their creator or company, and refuse an unknown token', async () => {
    const { token, link } = (await createLink(ownerA.token, { name: 'Wall', scope: 'company', expiresInDays: 7 })).data;
    expect((await dataByLink(token)).body.code).toBe(0);
    expect((await post(`/api/v1/fullscreen/links/${link.id}/revoke`, {}, ownerB)).code).toBe(Code.DISPLAY_LINK_INVALID);
    expect((await dataByLink(token)).body.code).toBe(0);
    expect((await post(`/api/v1/fullscreen/links/${link.id}/revoke`, {}, memberA)).code).toBe(0);
    const refused = await dataByLink(token);
    expect(refused.body.code).toBe(Code.DISPLAY_LINK_INVALID);
    expect(refused.body.message).toMatch(/revoked/);
    const rows = await get<DisplayLinkRow[]>('/api/v1/fullscreen/links', ownerA.token);
    expect(rows.data.find((l) => l.id === link.id)?.state).toBe('revoked');
    expect((await dataByLink('not-a-token')).body.code).toBe(Code.DISPLAY_LINK_INVALID);
    expect((await call(server.app, 'GET', '/api/v1/fullscreen/link/data')).body.code).toBe(Code.DISPLAY_LINK_INVALID);
  });

  it('stop working once expired, and when their creator is disabled', async () => {
    const expiring = (await createLink(ownerA.token, { name: 'Soon', scope: 'company', expiresInDays: 1 })).data;
    await server.database.db
      .update(displayLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(displayLinks.id, expiring.link.id));
    const refused = await dataByLink(expiring.token);
    expect(refused.body.code).toBe(Code.DISPLAY_LINK_EXPIRED);
    const rows = await get<DisplayLinkRow[]>('/api/v1/fullscreen/links', ownerA.token);
    expect(rows.data.find((l) => l.id === expiring.link.id)?.state).toBe('expired');

    const creator = await signedInUser(server, 'company_admin', await server.createCompany('Display Company C'));
    const link = (await createLink(creator.token, { name: 'Gone', scope: 'company', expiresInDays: 5 })).data;
    expect((await dataByLink(link.token)).body.code).toBe(0);
    await server.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, creator.id));
    expect((await dataByLink(link.token)).body.code).toBe(Code.DISPLAY_LINK_INVALID);
  });

  it('are made for a company by its members only, and not by a guest', async () => {
    const platform = await createLink(admin, { name: 'Platform', scope: 'company', expiresInDays: 5 });
    expect(platform.code).toBe(Code.NO_PERMISSION);
    const guest = await signedInUser(server, 'guest');
    expect((await createLink(guest.token, { name: 'Guest', scope: 'company', expiresInDays: 5 })).code).not.toBe(0);
  });

  it('for a named company by a platform administrator, picked from the companies; nobody else names one', async () => {
    const picked = await get<DisplayCompany[]>('/api/v1/fullscreen/companies?keyword=display%20company%20a', admin);
    expect(picked.data.map((c) => c.name)).toEqual(['Display Company A']);
    const companyA = picked.data[0]?.id;
    expect((await get('/api/v1/fullscreen/companies', ownerA.token)).code).toBe(Code.NO_PERMISSION);
    const created = await createLink(admin, { name: 'Company A wall', scope: 'company', companyId: companyA, expiresInDays: 5 });
    expect(created.code).toBe(0);
    expect(created.data.link).toMatchObject({ scope: 'company', companyId: companyA, companyName: 'Display Company A' });
    // The company's plants exactly (not every plant the administrator sees), as the company's own link shows them.
    const data = await dataByLink(created.data.token);
    expect(data.body.code).toBe(0);
    expect(data.body.data.plants.map((p) => p.id).sort()).toEqual([...plantsA].sort());
    expect(data.body.data.kpi).toEqual((await get<DisplayData>('/api/v1/fullscreen/data', ownerA.token)).data.kpi);
    // The company's members see it in their list and may revoke it.
    expect((await get<DisplayLinkRow[]>('/api/v1/fullscreen/links', memberA)).data.some((l) => l.id === created.data.link.id)).toBe(true);
    // A member of another company may not name company A; an unknown company is refused; nothing is stored.
    const before = (await server.database.db.select().from(displayLinks)).length;
    const other = await createLink(ownerB, { name: 'Not ours', scope: 'company', companyId: companyA, expiresInDays: 5 });
    expect(other.code).toBe(Code.NO_PERMISSION);
    expect((await createLink(admin, { name: 'Nobody', scope: 'company', companyId: 999_999, expiresInDays: 5 })).code).toBe(Code.NOT_FOUND);
    expect((await server.database.db.select().from(displayLinks)).length).toBe(before);
    expect((await post(`/api/v1/fullscreen/links/${created.data.link.id}/revoke`, {}, memberA)).code).toBe(0);
    expect((await dataByLink(created.data.token)).body.code).toBe(Code.DISPLAY_LINK_INVALID);
  });
});
