import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import { addDays, localDayOf, localDayStart } from '@sunward/contracts/plant-energy';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { roleIndex } from '@sunward/protocol/positions';
import { sampleValues } from '@sunward/protocol/sample-values';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.js';
import { devices, gateways, plants } from '../db/schema.js';
import { call, signIn } from '../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../test/harness.js';
import { connectTestGateway, type TestGateway } from '../test/test-gateway.js';

// The energy model (docs/decisions.md "One energy model"): per device and plant-local day, the sum of the
// counter's rises between consecutive readings in time order, each in the day of the later reading; a
// fall is a new start; lifetime = first counter + Σ days and never falls. Late, repeated and out-of-order
// reports must give the figures in-order ones give.

const PROTO = 'sunspec-inverter-1p';
const HOUR = 3_600_000;
let server: TestServer;
let token: string;
let serial = 0;
const open: TestGateway[] = [];

beforeAll(async () => {
  server = await startTestServer();
  token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
});
afterAll(async () => {
  await Promise.all(open.map((g) => g.close()));
  await server?.close();
});

interface TestPlant {
  plantId: number;
  gateway: { id: number; sn: string; key: string };
  deviceIds: number[];
  sns: string[];
}

/** A plant with one gateway and `count` inverters, written straight into the registry (any IANA zone). */
async function plantWith(timezone: string, count: number): Promise<TestPlant> {
  const n = ++serial;
  const { db } = server.database;
  const [plant] = await db
    .insert(plants)
    .values({ name: `Energy ${n}`, capacityKwp: 10, latitude: 10, longitude: 10, timezone })
    .returning({ id: plants.id });
  if (!plant) throw new Error('no plant');
  const sn = `GWEM${String(n).padStart(6, '0')}`;
  const key = `${sn.toLowerCase()}-key`;
  const gatewayId = await server.registerGateway(sn, key);
  await db.execute(sql`update ${gateways} set plant_id = ${plant.id} where id = ${gatewayId}`);
  const sns = Array.from({ length: count }, (_, i) => `EM${String(n).padStart(6, '0')}${i}`);
  const rows = await db
    .insert(devices)
    .values(sns.map((s) => ({ sn: s, plantId: plant.id, gatewayId, family: 'inverter', protocolId: PROTO, model: PROTO })))
    .returning({ id: devices.id });
  await server.telemetry.pipeline.reloadDevices();
  return { plantId: plant.id, gateway: { id: gatewayId, sn, key }, deviceIds: rows.map((r) => r.id), sns };
}

function payload(seq: number, ts: number, list: readonly { sn: string; wh: number; w?: number }[]): Buffer {
  const protocol = protocolById(PROTO);
  if (!protocol) throw new Error('no map');
  const devicesOut = list.map((d) => ({
    sn: d.sn,
    proto: PROTO,
    blocks: encodeValues(protocol, { ...sampleValues(protocol), WH: d.wh, W: d.w ?? 1000, St: 4 }).map((b) => ({
      fc: b.functionCode,
      addr: b.address,
      hex: registersToHex(b.registers),
    })),
  }));
  return Buffer.from(JSON.stringify({ v: 1, seq, ts, devices: devicesOut }));
}

/** Hands reports to the pipeline as the broker does; those given together land in the same batches. */
async function deliver(p: TestPlant, reports: readonly { seq: number; ts: number; sn: string; wh: number }[]) {
  await Promise.all(reports.map((r) => server.telemetry.pipeline.submitReport(p.gateway, payload(r.seq, r.ts, [{ sn: r.sn, wh: r.wh }]))));
}

const get = async <T>(path: string, query?: Record<string, string>) => {
  const result = await call<T>(server.app, 'GET', path, { token, ...(query ? { query } : {}) });
  if (result.body.code !== 0) throw new Error(`${path}: ${JSON.stringify(result.body)}`);
  return result.body.data;
};

const plantDays = (plantId: number, from: string, to: string) => server.telemetry.queries.plantDailyEnergy(plantId, from, to);
const deviceDays = (deviceId: number, from: string, to: string) => server.telemetry.queries.deviceDailyEnergy(deviceId, from, to);
async function listRow(plantId: number) {
  const page = await get<{ records: { id: number; energyTotalWh: number | null; energyTodayWh: number | null }[] }>('/api/v1/plants', {
    page: '1',
    size: '100',
  });
  return page.records.find((r) => r.id === plantId);
}

describe('findings of issue 16', () => {
  it('a late report raises its own day and lowers the next; the plant day is recomputed, never counted twice', async () => {
    const zone = 'America/New_York';
    const p = await plantWith(zone, 1);
    const sn = p.sns[0] ?? '';
    const today = localDayOf(Date.now(), zone);
    const d2 = addDays(today, -2);
    const d1 = addDays(today, -1);
    const at = (day: string, hour: number) => localDayStart(day, zone) + hour * HOUR;
    await deliver(p, [{ seq: 1, ts: at(d2, 10), sn, wh: 1_000 }]);
    await deliver(p, [{ seq: 2, ts: at(d1, 10), sn, wh: 5_000 }]);
    await server.telemetry.pipeline.drain();
    // Store and forward: the evening of d2 arrives after d1 began.
    await deliver(p, [{ seq: 3, ts: at(d2, 20), sn, wh: 4_000 }]);
    await server.telemetry.pipeline.drain();
    const device = await deviceDays(p.deviceIds[0] ?? 0, d2, d1);
    expect(device).toEqual([
      { day: d2, energyWh: 3_000 },
      { day: d1, energyWh: 1_000 },
    ]);
    expect(await plantDays(p.plantId, d2, d1)).toEqual(device);
  });

  it('a counter reset loses no energy of its day and never lowers lifetime (list and overview)', async () => {
    const zone = 'Asia/Kolkata';
    const p = await plantWith(zone, 1);
    const sn = p.sns[0] ?? '';
    const today = localDayOf(Date.now(), zone);
    const d1 = addDays(today, -1);
    const at = (day: string, hour: number) => localDayStart(day, zone) + hour * HOUR;
    await deliver(p, [{ seq: 1, ts: at(addDays(today, -2), 18), sn, wh: 8_990_000 }]);
    await deliver(p, [
      { seq: 2, ts: at(d1, 6), sn, wh: 9_000_000 },
      { seq: 3, ts: at(d1, 10), sn, wh: 9_002_000 },
    ]);
    await server.telemetry.pipeline.drain();
    const before = await listRow(p.plantId);
    expect(before?.energyTotalWh).toBe(9_002_000);
    // The board was replaced at 11:00: the counter starts again (a SunSpec accumulator's 0 means "absent").
    await deliver(p, [{ seq: 4, ts: at(d1, 11), sn, wh: 100 }]);
    await deliver(p, [{ seq: 5, ts: at(d1, 12), sn, wh: 1_000 }]);
    await deliver(p, [{ seq: 6, ts: at(d1, 14), sn, wh: 3_000 }]);
    await server.telemetry.pipeline.drain();
    expect(await deviceDays(p.deviceIds[0] ?? 0, d1, d1)).toEqual([{ day: d1, energyWh: 14_900 }]);
    expect(await plantDays(p.plantId, d1, d1)).toEqual([{ day: d1, energyWh: 14_900 }]);
    // Lifetime = first counter + every day = 8,990,000 + 14,900.
    expect((await listRow(p.plantId))?.energyTotalWh).toBe(9_004_900);
    const overview = await get<{ energyTotalWh: number }>(`/api/v1/plant/${p.plantId}/realtime`);
    expect(overview.energyTotalWh).toBe(9_004_900);
    const bars = await get<{ labels: string[]; series: { values: (number | null)[] }[] }>(`/api/v1/inverter/${sn}/month`, {
      date: d1.slice(0, 7),
    });
    expect(bars.series[0]?.values[bars.labels.indexOf(d1)]).toBe(14_900);
  });

  it('keeps counters at full precision: raw values, rollup, device page and list agree to the watt-hour', async () => {
    const zone = 'UTC';
    const p = await plantWith(zone, 1);
    const sn = p.sns[0] ?? '';
    const id = p.deviceIds[0] ?? 0;
    const day = localDayOf(Date.now(), zone);
    const t0 = Math.max(localDayStart(day, zone) + 1000, Date.now() - 2 * HOUR);
    await deliver(p, [{ seq: 1, ts: t0, sn, wh: 399_889_258 }]);
    await deliver(p, [{ seq: 2, ts: t0 + 60_000, sn, wh: 399_889_270 }]);
    await server.telemetry.pipeline.drain();
    const index = roleIndex(PROTO, 'energy_total') ?? 0;
    const raw = await queryRows<{ v: number }>(
      server.database.db,
      sql`select values[${index}]::float8 as v from readings where device_id = ${id} order by ts`,
    );
    expect(raw.map((r) => Number(r.v))).toEqual([399_889_258, 399_889_270]);
    expect(await deviceDays(id, day, day)).toEqual([{ day, energyWh: 12 }]);
    const list = await get<{ infos: { sn: string; energyTotalWh: number | null }[] }>('/api/v1/inverters', {
      page: '1',
      size: '100',
      keyword: sn,
    });
    expect(list.infos.find((r) => r.sn === sn)?.energyTotalWh).toBe(399_889_270);
    const bars = await get<{ labels: string[]; series: { values: (number | null)[] }[] }>(`/api/v1/inverter/${sn}/month`, {
      date: day.slice(0, 7),
    });
    expect(bars.series[0]?.values[bars.labels.indexOf(day)]).toBe(12);
  });

  it('shows today’s energy in the device list after a multi-day catch-up, and counts no gap for late or repeated reports', async () => {
    const zone = 'UTC';
    const p = await plantWith(zone, 1);
    const sn = p.sns[0] ?? '';
    const today = localDayOf(Date.now(), zone);
    const todayTs = Math.max(localDayStart(today, zone) + 60_000, Date.now() - 60_000);
    const gw = await connectTestGateway(server.telemetry.mqttPort, p.gateway.sn, p.gateway.key);
    open.push(gw);
    const publish = (seq: number, ts: number, wh: number) =>
      gw.client.publishAsync(gatewayTopic(p.gateway.sn, 'report'), payload(seq, ts, [{ sn, wh }]), { qos: 1 });
    // A backlog of three days at once, out of order, one report repeated.
    await Promise.all([
      publish(1, localDayStart(addDays(today, -2), zone) + 12 * HOUR, 10_000),
      publish(3, localDayStart(addDays(today, -1), zone) + 12 * HOUR, 14_000),
      publish(2, localDayStart(addDays(today, -2), zone) + 13 * HOUR, 11_000),
      publish(3, localDayStart(addDays(today, -1), zone) + 12 * HOUR, 14_000),
      publish(4, todayTs - 30_000, 14_500),
      publish(5, todayTs, 15_250),
    ]);
    await server.telemetry.pipeline.drain();
    const list = await get<{ infos: { sn: string; energyTodayWh: number | null }[] }>('/api/v1/inverters', {
      page: '1',
      size: '100',
      keyword: sn,
    });
    expect(list.infos.find((r) => r.sn === sn)?.energyTodayWh).toBe(1_250);
    expect((await listRow(p.plantId))?.energyTodayWh).toBe(1_250);
    const [gateway] = await queryRows<{ gap_count: number }>(
      server.database.db,
      sql`select gap_count from gateways where id = ${p.gateway.id}`,
    );
    expect(Number(gateway?.gap_count)).toBe(0);
    // A report that never comes is a gap.
    await publish(7, todayTs + 1000, 15_300);
    const [after] = await queryRows<{ gap_count: number }>(
      server.database.db,
      sql`select gap_count from gateways where id = ${p.gateway.id}`,
    );
    expect(Number(after?.gap_count)).toBe(1);
  });
});

/** The most recent day within the last four weeks that is not 24 hours long in the zone (a DST change). */
function recentDstDay(zone: string): string | undefined {
  const today = localDayOf(Date.now(), zone);
  for (let i = 2; i < 28; i++) {
    const day = addDays(today, -i);
    if (localDayStart(addDays(day, 1), zone) - localDayStart(day, zone) !== 24 * HOUR) return day;
  }
  return undefined;
}

/** The figures from the stream itself: sorted by time, one reading per time, rises in the later reading's day. */
function truthOf(readings: readonly { ts: number; wh: number }[], zone: string) {
  const byTs = new Map<number, number>();
  for (const r of readings) if (!byTs.has(r.ts)) byTs.set(r.ts, r.wh);
  const sorted = [...byTs].sort((a, b) => a[0] - b[0]);
  const days = new Map<string, number>();
  let previous: number | undefined;
  for (const [ts, wh] of sorted) {
    const day = localDayOf(ts, zone);
    days.set(day, (days.get(day) ?? 0) + (previous === undefined ? 0 : Math.max(0, wh - previous)));
    previous = wh;
  }
  const first = sorted[0]?.[1] ?? 0;
  return { days, lifetime: first + [...days.values()].reduce((a, b) => a + b, 0) };
}

describe('the energy model over random report streams', () => {
  it('gives every day, month, year, plant and lifetime figure the ordered stream gives, whatever the delivery', async () => {
    const stream = fc.record({
      zone: fc.constantFrom('America/New_York', 'Asia/Kolkata'),
      nearDst: fc.boolean(),
      startOffsetH: fc.integer({ min: -30, max: 20 }),
      devices: fc.array(
        fc.record({
          start: fc.oneof(fc.integer({ min: 1, max: 5_000_000 }), fc.constant(399_889_258)),
          steps: fc.array(
            fc.record({
              afterMin: fc.integer({ min: 1, max: 9 * 60 }),
              rise: fc.integer({ min: 0, max: 4_000 }),
              reset: fc.integer({ min: 0, max: 19 }),
            }),
            { minLength: 1, maxLength: 10 },
          ),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      order: fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 40, maxLength: 40 }),
      duplicates: fc.array(fc.nat(), { maxLength: 4 }),
      waves: fc.integer({ min: 1, max: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(stream, async (s) => {
        const p = await plantWith(s.zone, s.devices.length);
        const dst = recentDstDay(s.zone);
        const today = localDayOf(Date.now(), s.zone);
        const anchor = s.nearDst && dst ? dst : addDays(today, -3);
        // Readings from around the anchor's midnight, never in the future.
        let ts = localDayStart(anchor, s.zone) + s.startOffsetH * HOUR;
        const reports: { seq: number; ts: number; sn: string; wh: number }[] = [];
        const truths = s.devices.map((d, i) => {
          const sn = p.sns[i] ?? '';
          const readings: { ts: number; wh: number }[] = [];
          let t = ts + i * 7_000;
          let wh = d.start;
          readings.push({ ts: t, wh });
          for (const step of d.steps) {
            t += step.afterMin * 60_000;
            // A reset starts again low (0 itself is a SunSpec accumulator's "absent").
            wh = step.reset === 0 ? 1 + (step.rise % 500) : wh + step.rise;
            if (t < Date.now() - 60_000) readings.push({ ts: t, wh });
          }
          for (const r of readings) reports.push({ seq: 0, ts: r.ts, sn, wh: r.wh });
          return truthOf(readings, s.zone);
        });
        ts = 0;
        // Shuffled, some delivered twice, in waves (each wave stored before the next: late reports).
        const shuffled = reports.map((r, i) => ({ r, key: s.order[i % s.order.length] ?? i })).sort((a, b) => a.key - b.key);
        const deliveries = shuffled.map((x) => x.r);
        for (const d of s.duplicates) {
          const again = deliveries[d % deliveries.length];
          if (again) deliveries.push(again);
        }
        deliveries.forEach((r, i) => {
          r.seq = i + 1;
        });
        const size = Math.ceil(deliveries.length / s.waves);
        let lifetimeSeen = 0;
        for (let w = 0; w < deliveries.length; w += size) {
          await deliver(p, deliveries.slice(w, w + size));
          await server.telemetry.pipeline.drain();
          const [row] = await queryRows<{ total: number | null }>(
            server.database.db,
            sql`select energy_total_wh as total from plants where id = ${p.plantId}`,
          );
          const lifetime = Number(row?.total ?? 0);
          expect(lifetime).toBeGreaterThanOrEqual(lifetimeSeen);
          lifetimeSeen = lifetime;
        }
        // Every device-day, the plant-day as the sum of its devices, months and the year from the days.
        const plantTruth = new Map<string, number>();
        for (const [i, truth] of truths.entries()) {
          const days = [...truth.days.keys()].sort();
          const from = days[0] ?? today;
          const to = days.at(-1) ?? today;
          const stored = await deviceDays(p.deviceIds[i] ?? 0, from, to);
          expect(stored).toEqual(days.map((day) => ({ day, energyWh: truth.days.get(day) })));
          for (const [day, e] of truth.days) plantTruth.set(day, (plantTruth.get(day) ?? 0) + e);
        }
        const allDays = [...plantTruth.keys()].sort();
        const plant = await plantDays(p.plantId, allDays[0] ?? today, allDays.at(-1) ?? today);
        expect(plant).toEqual(allDays.map((day) => ({ day, energyWh: plantTruth.get(day) })));
        for (const year of new Set(allDays.map((d) => Number(d.slice(0, 4))))) {
          const months = await server.telemetry.queries.plantMonthlyEnergy(p.plantId, year);
          const expected = new Map<string, number>();
          for (const [day, e] of plantTruth)
            if (day.startsWith(String(year))) expected.set(day.slice(0, 7), (expected.get(day.slice(0, 7)) ?? 0) + e);
          expect(months).toEqual([...expected].sort().map(([month, energyWh]) => ({ month, energyWh })));
        }
        expect(lifetimeSeen).toBe(truths.reduce((sum, t) => sum + t.lifetime, 0));
      }),
      { numRuns: 12 },
    );
  });
});
