import { addDays, localDayOf, localDayStart } from '@sunward/contracts/plant-energy';
import { roleIndex } from '@sunward/protocol/positions';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../db/client.js';
import { deviceEnergyDaily, deviceEvents, deviceRealtime, devices, gateways, plants, readings } from '../db/schema.js';
import { type CounterReading, energyByDay } from './energy-days.js';
import { readingPartitionName } from './reading-partitions.js';

export interface DeviceRecord {
  id: number;
  sn: string;
  gatewayId: number | null;
  plantId: number | null;
  protocolId: string;
  timezone: string;
}

export interface ReadingRow {
  deviceId: number;
  ts: Date;
  values: number[];
}

export interface RealtimeRow {
  deviceId: number;
  ts: Date;
  powerW: number | null;
  energyTotalWh: number | null;
  soc: number | null;
}

/** What a stored reading brings to the energy rollup: its counter and power, and its device's day. */
export interface EnergyRow {
  deviceId: number;
  ts: Date;
  counterWh: number | null;
  powerW: number | null;
  /** The plant's time zone, which sets the device's day boundaries. */
  timezone: string;
  protocolId: string;
}

export interface DeviceStatusRow {
  deviceId: number;
  status: number;
  ts: Date;
}

// Statements stay moderate so one slow batch does not hold a transaction for long.
const MAX_ROWS_PER_STATEMENT = 5000;

const FLOAT8_OID = 701;

/**
 * Every row's values back to back as one double precision[] in PostgreSQL's binary array format (what
 * array_recv reads), with each row's 1-based [start:end] slice. Doubles cross as 8 bytes the server copies
 * instead of text it parses: the readings insert took half the time. Full precision: a 4-byte float kept
 * only ~32 Wh of a 400 MWh counter. NaN (an absent point) is a valid double.
 */
export function packValues(rows: readonly { values: readonly number[] }[]): { packed: Buffer; starts: number[]; ends: number[] } {
  let count = 0;
  for (const row of rows) count += row.values.length;
  const packed = Buffer.allocUnsafe(count === 0 ? 12 : 20 + 12 * count);
  packed.writeInt32BE(count === 0 ? 0 : 1, 0); // dimensions
  packed.writeInt32BE(0, 4); // no nulls
  packed.writeInt32BE(FLOAT8_OID, 8);
  const starts: number[] = [];
  const ends: number[] = [];
  if (count === 0) {
    for (const _ of rows) {
      starts.push(1);
      ends.push(0);
    }
    return { packed, starts, ends };
  }
  packed.writeInt32BE(count, 12); // length of the dimension
  packed.writeInt32BE(1, 16); // its lower bound
  let offset = 20;
  let position = 0;
  for (const row of rows) {
    starts.push(position + 1);
    for (const value of row.values) {
      packed.writeInt32BE(8, offset);
      packed.writeDoubleBE(value, offset + 4);
      offset += 12;
    }
    position += row.values.length;
    ends.push(position);
  }
  return { packed, starts, ends };
}

const INT4_OID = 23;

/** A column of numbers as one binary array parameter (see binaryArray). */
const int4Param = (values: readonly (number | null)[]) => sql.param(binaryArray(values, 'int4'));
const float8Param = (values: readonly (number | null)[]) => sql.param(binaryArray(values, 'float8'));

/**
 * A one-dimensional int4[] or float8[] in PostgreSQL's binary array format, nulls allowed: a column of
 * numbers crosses as bytes the server copies, not as a text literal node-postgres escapes element by
 * element and the server parses back (most of a multi-column upsert's time). Times travel as epoch
 * milliseconds and become timestamptz in SQL (to_timestamp).
 */
export function binaryArray(values: readonly (number | null)[], kind: 'int4' | 'float8'): Buffer {
  const size = kind === 'int4' ? 4 : 8;
  let nulls = 0;
  for (const v of values) if (v === null) nulls++;
  const buffer = Buffer.allocUnsafe(20 + values.length * 4 + (values.length - nulls) * size);
  buffer.writeInt32BE(1, 0); // dimensions (an empty array is still read with one, length 0)
  buffer.writeInt32BE(nulls > 0 ? 1 : 0, 4);
  buffer.writeInt32BE(kind === 'int4' ? INT4_OID : FLOAT8_OID, 8);
  buffer.writeInt32BE(values.length, 12);
  buffer.writeInt32BE(1, 16);
  let offset = 20;
  for (const v of values) {
    if (v === null) {
      buffer.writeInt32BE(-1, offset);
      offset += 4;
      continue;
    }
    buffer.writeInt32BE(size, offset);
    if (kind === 'int4') buffer.writeInt32BE(v, offset + 4);
    else buffer.writeDoubleBE(v, offset + 4);
    offset += 4 + size;
  }
  return buffer;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const dayKey = (deviceId: number, day: string) => `${deviceId}|${day}`;

/**
 * The energy rollup of newly stored readings (the model in energy-days.ts). In order (every new counter
 * reading newer than the device's last one) the new steps are added to the device-days: the cheap path.
 * A late reading (older than the device's last stored one) has its device's days recomputed from raw
 * readings, from its own day through the day of the reading that follows it, so late, repeated and
 * out-of-order reports end with the same figures as in-order ones. Peak power merges order-independently.
 * `known` holds devices' last counter readings as this process last committed them (read from the
 * database when missing). Returns every device-day written and each device's last counter reading after
 * the batch (undefined: read it again next time), for the caller to remember once the batch commits.
 */
async function writeEnergy(
  tx: Database,
  rows: readonly EnergyRow[],
  known: ReadonlyMap<number, CounterReading>,
): Promise<{ touched: { deviceId: number; day: string }[]; lastAfter: Map<number, CounterReading | undefined> }> {
  const lastAfter = new Map<number, CounterReading | undefined>();
  if (rows.length === 0) return { touched: [], lastAfter };
  const byDevice = new Map<number, EnergyRow[]>();
  for (const r of rows) {
    const list = byDevice.get(r.deviceId);
    if (list) list.push(r);
    else byDevice.set(r.deviceId, [r]);
  }
  const deviceIds = [...byDevice.keys()].sort((a, b) => a - b);
  const counted = deviceIds.filter((id) => !known.has(id) && byDevice.get(id)?.some((r) => r.counterWh !== null));
  const lastRows =
    counted.length === 0
      ? []
      : await queryRows<{ device_id: number; day: string; last_ts: number | null; last_wh: number }>(
          tx,
          sql`select d.id as device_id, x.day, x.last_ts, x.last_wh
              from unnest(${sql.param(counted)}::int[]) as d(id)
              join lateral (select to_char(e.day, 'YYYY-MM-DD') as day, (extract(epoch from e.last_ts) * 1000)::float8 as last_ts, e.last_wh
                            from ${deviceEnergyDaily} e where e.device_id = d.id and e.last_wh is not null order by e.day desc limit 1) x on true`,
        );
  const last = new Map<number, { ts: number | null; wh: number }>(known);
  for (const r of lastRows) last.set(Number(r.device_id), { ts: r.last_ts === null ? null : Number(r.last_ts), wh: Number(r.last_wh) });

  // Merged rows: new steps (in order), peak power and counter extremes, one per device-day.
  interface Merge {
    deviceId: number;
    day: string;
    firstTs: number | null;
    firstWh: number | null;
    lastTs: number | null;
    lastWh: number | null;
    energyWh: number;
    dropWh: number;
    peakW: number | null;
  }
  const merges = new Map<string, Merge>();
  const mergeOf = (deviceId: number, day: string): Merge => {
    const key = dayKey(deviceId, day);
    let m = merges.get(key);
    if (!m) {
      m = {
        deviceId,
        day,
        firstTs: null,
        firstWh: null,
        lastTs: null,
        lastWh: null,
        energyWh: 0,
        dropWh: 0,
        peakW: null,
      };
      merges.set(key, m);
    }
    return m;
  };
  const late: { deviceId: number; rows: EnergyRow[] }[] = [];
  for (const deviceId of deviceIds) {
    const list = byDevice.get(deviceId) ?? [];
    const timezone = list[0]?.timezone ?? 'UTC';
    for (const r of list) {
      const m = mergeOf(deviceId, localDayOf(r.ts.getTime(), timezone));
      if (r.powerW !== null) m.peakW = m.peakW === null ? r.powerW : Math.max(m.peakW, r.powerW);
    }
    const counters = list.flatMap((r) => (r.counterWh === null ? [] : [{ ts: r.ts.getTime(), wh: r.counterWh }]));
    if (counters.length === 0) continue;
    const previous = last.get(deviceId);
    const oldest = Math.min(...counters.map((c) => c.ts));
    if (previous && (previous.ts === null || oldest <= previous.ts)) {
      late.push({ deviceId, rows: list });
      lastAfter.set(deviceId, undefined);
      continue;
    }
    const days = energyByDay(previous?.ts == null ? undefined : { ts: previous.ts, wh: previous.wh }, counters, (ts) =>
      localDayOf(ts, timezone),
    );
    const newest = days.at(-1);
    if (newest) lastAfter.set(deviceId, { ts: newest.lastTs, wh: newest.lastWh });
    for (const d of days)
      Object.assign(mergeOf(deviceId, d.day), {
        firstTs: d.firstTs,
        firstWh: d.firstWh,
        lastTs: d.lastTs,
        lastWh: d.lastWh,
        energyWh: d.energyWh,
        dropWh: d.dropWh,
      });
  }
  const merged = [...merges.values()];
  const column = (pick: (m: Merge) => number | null) => float8Param(merged.map(pick));
  await tx.execute(sql`
    insert into ${deviceEnergyDaily} (device_id, day, first_ts, first_wh, last_ts, last_wh, energy_wh, drop_wh, peak_w)
    select d, dy, to_timestamp(ft / 1000), fw, to_timestamp(lt / 1000), lw, en, dr, pk
    from unnest(${int4Param(merged.map((m) => m.deviceId))}::int[], ${sql.param(merged.map((m) => m.day))}::date[],
                ${column((m) => m.firstTs)}::float8[], ${column((m) => m.firstWh)}::float8[],
                ${column((m) => m.lastTs)}::float8[], ${column((m) => m.lastWh)}::float8[],
                ${column((m) => m.energyWh)}::float8[], ${column((m) => m.dropWh)}::float8[],
                ${column((m) => m.peakW)}::float8[]) as v(d, dy, ft, fw, lt, lw, en, dr, pk)
    on conflict (device_id, day) do update set
      first_ts = coalesce(${deviceEnergyDaily.firstTs}, excluded.first_ts),
      first_wh = coalesce(${deviceEnergyDaily.firstWh}, excluded.first_wh),
      last_ts = coalesce(excluded.last_ts, ${deviceEnergyDaily.lastTs}),
      last_wh = coalesce(excluded.last_wh, ${deviceEnergyDaily.lastWh}),
      energy_wh = ${deviceEnergyDaily.energyWh} + excluded.energy_wh,
      drop_wh = ${deviceEnergyDaily.dropWh} + excluded.drop_wh,
      peak_w = greatest(${deviceEnergyDaily.peakW}, excluded.peak_w)`);
  const touched = merged.map((m) => ({ deviceId: m.deviceId, day: m.day }));
  touched.push(...(await recomputeDeviceDays(tx, late)));
  return { touched, lastAfter };
}

/**
 * Recomputes late devices' days from raw readings: for each, from the day of its oldest new reading through
 * the day of the reading that follows its newest (whose step now starts elsewhere). The step into the first day
 * starts from the last reading of the device's previous rollup day. Three statements for all of them, whatever
 * their number: a backlog stored out of order, or one gateway's reports stored by several processes, makes most
 * of a batch's devices late (one look-up per device held the batch's locks for seconds; see benchmarks.md).
 */
async function recomputeDeviceDays(
  tx: Database,
  late: readonly { deviceId: number; rows: readonly EnergyRow[] }[],
): Promise<{ deviceId: number; day: string }[]> {
  const plans = late.flatMap(({ deviceId, rows: list }) => {
    const first = list[0];
    const index = first ? roleIndex(first.protocolId, 'energy_total') : undefined;
    const times = list.filter((r) => r.counterWh !== null).map((r) => r.ts.getTime());
    if (!first || index === undefined || times.length === 0) return [];
    const timezone = first.timezone;
    const dayOf = (ts: number) => localDayOf(ts, timezone);
    return [{ deviceId, index, timezone, dayOf, fromDay: dayOf(Math.min(...times)), newest: Math.max(...times) }];
  });
  if (plans.length === 0) return [];
  const ids = int4Param(plans.map((p) => p.deviceId));
  const indexes = int4Param(plans.map((p) => p.index));
  // Each device's next counter reading after its newest new one, and its last rollup reading before its first day.
  const edges = await queryRows<{ device_id: number; next_t: number | null; last_ts: number | null; last_wh: number | null }>(
    tx,
    sql`select v.d as device_id,
          (select (extract(epoch from min(r.ts)) * 1000)::float8 from ${readings} r
           where r.device_id = v.d and r.ts > to_timestamp(v.n / 1000) and r.values[v.i] is not null and r.values[v.i] <> 'NaN') as next_t,
          b.last_ts, b.last_wh
        from unnest(${ids}::int[], ${indexes}::int[], ${float8Param(plans.map((p) => p.newest))}::float8[], ${sql.param(plans.map((p) => p.fromDay))}::date[]) as v(d, i, n, f)
        left join lateral (select (extract(epoch from e.last_ts) * 1000)::float8 as last_ts, e.last_wh from ${deviceEnergyDaily} e
                           where e.device_id = v.d and e.day < v.f and e.last_wh is not null order by e.day desc limit 1) b on true`,
  );
  const edgeOf = new Map(edges.map((e) => [Number(e.device_id), e]));
  const spans = plans.map((p) => {
    const edge = edgeOf.get(p.deviceId);
    const toDay = p.dayOf(edge?.next_t == null ? p.newest : Number(edge.next_t));
    const from = localDayStart(p.fromDay, p.timezone);
    return { ...p, from, to: localDayStart(addDays(toDay, 1), p.timezone), edge };
  });
  const raw = await queryRows<{ device_id: number; t: number; v: number }>(
    tx,
    sql`select v.d as device_id, (extract(epoch from r.ts) * 1000)::float8 as t, r.values[v.i]::float8 as v
        from unnest(${ids}::int[], ${indexes}::int[], ${float8Param(spans.map((p) => p.from))}::float8[], ${float8Param(spans.map((p) => p.to))}::float8[]) as v(d, i, f, u)
        join ${readings} r on r.device_id = v.d and r.ts >= to_timestamp(v.f / 1000) and r.ts < to_timestamp(v.u / 1000)
        where r.values[v.i] is not null and r.values[v.i] <> 'NaN'
        order by v.d, r.ts`,
  );
  const counters = new Map<number, CounterReading[]>();
  for (const r of raw) {
    const id = Number(r.device_id);
    const list = counters.get(id);
    const reading = { ts: Number(r.t), wh: Number(r.v) };
    if (list) list.push(reading);
    else counters.set(id, [reading]);
  }
  const days = spans.flatMap((p) => {
    const edge = p.edge;
    const previous =
      edge && edge.last_wh !== null
        ? { ts: edge.last_ts === null ? p.from - 1 : Number(edge.last_ts), wh: Number(edge.last_wh) }
        : undefined;
    return energyByDay(previous, counters.get(p.deviceId) ?? [], p.dayOf).map((d) => ({ deviceId: p.deviceId, ...d }));
  });
  if (days.length === 0) return [];
  const floats = (pick: (d: (typeof days)[number]) => number) => float8Param(days.map(pick));
  await tx.execute(sql`
    insert into ${deviceEnergyDaily} (device_id, day, first_ts, first_wh, last_ts, last_wh, energy_wh, drop_wh)
    select d, dy, to_timestamp(ft / 1000), fw, to_timestamp(lt / 1000), lw, en, dr
    from unnest(${int4Param(days.map((d) => d.deviceId))}::int[], ${sql.param(days.map((d) => d.day))}::date[],
                ${floats((d) => d.firstTs)}::float8[], ${floats((d) => d.firstWh)}::float8[],
                ${floats((d) => d.lastTs)}::float8[], ${floats((d) => d.lastWh)}::float8[],
                ${floats((d) => d.energyWh)}::float8[], ${floats((d) => d.dropWh)}::float8[]) as v(d, dy, ft, fw, lt, lw, en, dr)
    on conflict (device_id, day) do update set first_ts = excluded.first_ts, first_wh = excluded.first_wh, last_ts = excluded.last_ts,
      last_wh = excluded.last_wh, energy_wh = excluded.energy_wh, drop_wh = excluded.drop_wh`);
  return days.map((d) => ({ deviceId: d.deviceId, day: d.day }));
}

/**
 * All SQL of the ingest pipeline. `soleWriter`: this process is the only one storing readings (the embedded
 * broker), so it may remember each device's last counter reading between batches. With an external broker
 * several processes share the gateways' reports (a share group spreads one gateway's reports over all of
 * them), and a remembered reading is stale as soon as another process stored a later one: its steps would be
 * counted twice (measured: 36,500 Wh for a 29,500 Wh rise over three processes). Then every batch reads the
 * devices' last counter readings after its realtime upsert, which locks each of its devices' rows (in device
 * order) until commit, so it sees what another process committed for them.
 */
export function createTelemetryRepository(db: Database, options: { soleWriter: boolean } = { soleWriter: true }) {
  // Each device's last counter reading as this process committed it: in-order batches need no look-up.
  const lastCounters = new Map<number, CounterReading>();
  const noCounters: ReadonlyMap<number, CounterReading> = new Map();
  // A device with the time zone of its plant, which sets its day boundaries.
  const selectDeviceRecords = () =>
    db
      .select({
        id: devices.id,
        sn: devices.sn,
        gatewayId: devices.gatewayId,
        plantId: devices.plantId,
        protocolId: devices.protocolId,
        timezone: sql<string>`coalesce(${plants.timezone}, 'UTC')`,
      })
      .from(devices)
      .leftJoin(plants, eq(plants.id, devices.plantId));

  return {
    async gatewayCredentials(sn: string) {
      const [row] = await db.select({ id: gateways.id, keyHash: gateways.keyHash }).from(gateways).where(eq(gateways.sn, sn));
      return row;
    },

    async loadDevices(): Promise<DeviceRecord[]> {
      return selectDeviceRecords();
    },

    /** Brand, model and firmware as the devices report them (only sent when they change). */
    async updateNameplates(
      rows: readonly { deviceId: number; brand: string | null; model: string | null; firmware: string | null }[],
    ): Promise<void> {
      await db.execute(sql`update devices d set brand = coalesce(n.brand, d.brand), model = coalesce(n.model, d.model),
          firmware_version = coalesce(n.firmware, d.firmware_version)
        from unnest(${sql.param(rows.map((r) => r.deviceId))}::int[], ${sql.param(rows.map((r) => r.brand))}::text[],
                    ${sql.param(rows.map((r) => r.model))}::text[], ${sql.param(rows.map((r) => r.firmware))}::text[]) as n(id, brand, model, firmware)
        where d.id = n.id`);
    },

    async findDevice(sn: string): Promise<DeviceRecord | undefined> {
      const [row] = await selectDeviceRecords().where(eq(devices.sn, sn));
      return row;
    },

    async openEvents(): Promise<{ deviceId: number; code: number }[]> {
      return db
        .select({ deviceId: deviceEvents.deviceId, code: deviceEvents.code })
        .from(deviceEvents)
        .where(isNull(deviceEvents.clearedAt));
    },

    /**
     * Stores one batch in one transaction: raw readings (a redelivered one is a no-op), the realtime
     * snapshot (only moving forward in time), daily counters, device statuses, events and gateway
     * sequence numbers. Returns the devices whose status changed.
     */
    async writeBatch(batch: {
      readings: ReadingRow[];
      realtime: RealtimeRow[];
      energy: EnergyRow[];
      statuses: DeviceStatusRow[];
      openEvents: { deviceId: number; plantId: number | null; code: number; level: string; at: Date }[];
      clearEvents: { deviceId: number; code: number; at: Date }[];
      gateways: { gatewayId: number; lastSeq: number; gaps: number; at: Date }[];
    }): Promise<{ statusChanges: { deviceId: number; plantId: number | null }[]; energyDays: { deviceId: number; day: string }[] }> {
      const result = await db.transaction(async (tx) => {
        // Column arrays through unnest: one parameter per column instead of three per row, several
        // times faster than multi-row VALUES. The values travel packed in one binary array, sliced per row.
        for (const part of chunks(batch.readings, MAX_ROWS_PER_STATEMENT)) {
          const { packed, starts, ends } = packValues(part);
          await tx.execute(sql`
            insert into ${readings} (device_id, ts, values)
            select d, to_timestamp(t / 1000), (${sql.param(packed)}::float8[])[s:e]
            from unnest(${int4Param(part.map((r) => r.deviceId))}::int[],
                        ${float8Param(part.map((r) => r.ts.getTime()))}::float8[],
                        ${int4Param(starts)}::int[], ${int4Param(ends)}::int[]) as rows(d, t, s, e)
            on conflict do nothing`);
        }
        if (batch.realtime.length > 0) {
          const rt = batch.realtime;
          await tx.execute(sql`
            insert into ${deviceRealtime} (device_id, ts, power_w, energy_total_wh, soc)
            select d, to_timestamp(t / 1000), p, e, s::real
            from unnest(${int4Param(rt.map((r) => r.deviceId))}::int[],
                        ${float8Param(rt.map((r) => r.ts.getTime()))}::float8[],
                        ${float8Param(rt.map((r) => r.powerW))}::float8[],
                        ${float8Param(rt.map((r) => r.energyTotalWh))}::float8[],
                        ${float8Param(rt.map((r) => r.soc))}::float8[]) as rows(d, t, p, e, s)
            on conflict (device_id) do update set ts = excluded.ts, power_w = excluded.power_w,
              energy_total_wh = excluded.energy_total_wh, soc = excluded.soc
            where ${deviceRealtime.ts} < excluded.ts`);
        }
        // A redelivered reading (same device and time) is not stored again; for the energy it is a reading
        // not newer than the device's last, so its days are recomputed from what is stored: never counted twice.
        const energy = await writeEnergy(tx, batch.energy, options.soleWriter ? lastCounters : noCounters);
        // A device row is rewritten only when its status changes, and only by its newest reading (the
        // realtime row above already holds the newest time): the report time itself lives in device_realtime.
        // Writing every device on every report cost as much as storing the readings.
        const changed =
          batch.statuses.length === 0
            ? []
            : await queryRows<{ id: number; plant_id: number | null }>(
                tx,
                sql`
            update ${devices} d set status = v.status
            from unnest(${sql.param(batch.statuses.map((s) => s.deviceId))}::int[], ${sql.param(batch.statuses.map((s) => s.status))}::smallint[],
                        ${sql.param(batch.statuses.map((s) => s.ts.toISOString()))}::timestamptz[]) as v(id, status, ts)
            where d.id = v.id and d.status <> v.status
              and v.ts >= (select r.ts from ${deviceRealtime} r where r.device_id = d.id)
            returning d.id, d.plant_id`,
              );
        if (batch.openEvents.length > 0) {
          await tx
            .insert(deviceEvents)
            .values(
              batch.openEvents.map((e) => ({ deviceId: e.deviceId, plantId: e.plantId, code: e.code, level: e.level, openedAt: e.at })),
            )
            .onConflictDoNothing();
        }
        for (const e of batch.clearEvents) {
          await tx
            .update(deviceEvents)
            .set({ clearedAt: e.at })
            .where(and(eq(deviceEvents.deviceId, e.deviceId), eq(deviceEvents.code, e.code), isNull(deviceEvents.clearedAt)));
        }
        if (batch.gateways.length > 0) {
          await tx.execute(sql`
            update ${gateways} g set last_seq = greatest(coalesce(g.last_seq, 0), v.seq), gap_count = greatest(0, g.gap_count + v.gaps), last_report_at = v.at
            from (select unnest(${sql.param(batch.gateways.map((g) => g.gatewayId))}::int[]) as id,
                         unnest(${sql.param(batch.gateways.map((g) => g.lastSeq))}::int[]) as seq,
                         unnest(${sql.param(batch.gateways.map((g) => g.gaps))}::int[]) as gaps,
                         unnest(${sql.param(batch.gateways.map((g) => g.at.toISOString()))}::timestamptz[]) as at) v
            where g.id = v.id`);
        }
        return { statusChanges: changed.map((r) => ({ deviceId: r.id, plantId: r.plant_id })), energy };
      });
      // Committed: remember the devices' last counter readings.
      for (const [deviceId, reading] of options.soleWriter ? result.energy.lastAfter : []) {
        if (reading) lastCounters.set(deviceId, reading);
        else lastCounters.delete(deviceId);
      }
      return { statusChanges: result.statusChanges, energyDays: result.energy.touched };
    },

    /** Recomputes plant statuses from their devices' (the worst wins). */
    async plantDeviceStatuses(plantIds: readonly number[]): Promise<{ plantId: number; statuses: number[] }[]> {
      if (plantIds.length === 0) return [];
      const rows = await db
        .select({ plantId: devices.plantId, status: devices.status })
        .from(devices)
        .where(inArray(devices.plantId, [...plantIds]));
      const byPlant = new Map<number, number[]>();
      for (const r of rows) if (r.plantId !== null) byPlant.set(r.plantId, [...(byPlant.get(r.plantId) ?? []), r.status]);
      return [...byPlant].map(([plantId, statuses]) => ({ plantId, statuses }));
    },

    async setPlantStatus(plantId: number, status: number): Promise<void> {
      await db.update(plants).set({ status }).where(eq(plants.id, plantId));
    },

    async setGatewayPresence(gatewayId: number, presence: { online: boolean; at: Date; ip?: string | null }) {
      await db
        .update(gateways)
        .set({
          online: presence.online,
          status: presence.online ? 1 : 2,
          ...(presence.online ? { lastOnlineAt: presence.at, lastIp: presence.ip ?? null } : {}),
        })
        .where(eq(gateways.id, gatewayId));
    },

    async setGatewayInfo(
      gatewayId: number,
      info: {
        fw?: string;
        hw?: string;
        make?: string;
        model?: string;
        rssi?: number;
        comm?: string;
        iccid?: string;
        interval?: number;
        config?: { serverAddress: string; locked: boolean; digitalOutput: boolean; passwordSetAt?: number };
      },
    ) {
      await db
        .update(gateways)
        .set({
          ...(info.fw !== undefined ? { fwVersion: info.fw } : {}),
          ...(info.hw !== undefined ? { hwVersion: info.hw } : {}),
          ...(info.make !== undefined ? { manufacturer: info.make } : {}),
          ...(info.model !== undefined ? { model: info.model } : {}),
          ...(info.rssi !== undefined ? { rssi: info.rssi } : {}),
          ...(info.comm !== undefined ? { commType: info.comm } : {}),
          ...(info.iccid !== undefined ? { iccid: info.iccid } : {}),
          ...(info.interval !== undefined ? { reportIntervalS: info.interval } : {}),
          // The gateway's settings as it reports them: a change made on the gateway itself is seen too.
          ...(info.config
            ? {
                serverAddress: info.config.serverAddress,
                locked: info.config.locked,
                digitalOutput: info.config.digitalOutput,
                ...(info.config.passwordSetAt !== undefined ? { connectionPasswordAt: new Date(info.config.passwordSetAt) } : {}),
              }
            : {}),
        })
        .where(eq(gateways.id, gatewayId));
    },

    /** Devices silent for longer than `multiple` report intervals of their gateway become offline. */
    async markSilentDevicesOffline(multiple: number, now: Date, offline: number): Promise<{ plantIds: number[] }> {
      const rows = await queryRows<{ plant_id: number | null }>(
        db,
        sql`
        update ${devices} d set status = ${offline}
        from ${gateways} g
        where g.id = d.gateway_id and d.status <> ${offline}
          and not exists (select 1 from ${deviceRealtime} r where r.device_id = d.id
                          and r.ts >= ${now}::timestamptz - make_interval(secs => g.report_interval_s * ${multiple}))
        returning d.plant_id`,
      );
      return { plantIds: [...new Set(rows.map((r) => r.plant_id).filter((id): id is number => id !== null))] };
    },

    /** Monthly partitions of readings for this month and the next ones, created ahead of the data. */
    async ensureReadingPartitions(now: Date, monthsAhead: number): Promise<void> {
      for (let i = 0; i <= monthsAhead; i++) {
        const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1));
        const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
        const name = readingPartitionName(start);
        const exists = await queryRows<{ n: number }>(db, sql`select 1 as n from pg_class where relname = ${name}`);
        if (exists.length > 0) continue;
        // Rows already in the default partition for that month would block the new partition: move them.
        await db.transaction(async (tx) => {
          await tx.execute(sql.raw(`create table "${name}" (like readings including defaults)`));
          await tx.execute(
            sql.raw(
              `with moved as (delete from readings_default where ts >= '${start.toISOString()}' and ts < '${end.toISOString()}' returning *) insert into "${name}" select * from moved`,
            ),
          );
          await tx.execute(
            sql.raw(
              `alter table readings attach partition "${name}" for values from ('${start.toISOString()}') to ('${end.toISOString()}')`,
            ),
          );
        });
      }
    },
  };
}

export type TelemetryRepository = ReturnType<typeof createTelemetryRepository>;
