import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.js';
import { provisionDemoFleet } from '../features/fleet/demo-fleet.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { createTelemetryRepository } from './telemetry.repository.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RAW_RETENTION_DAYS: '200', CONNECTION_LOG_RETENTION_DAYS: '30' });
  await provisionDemoFleet(server.database.db, { seed: 3, mqttUrl: 'mqtt://unused', intervalSeconds: 60 });
});
afterAll(async () => server?.close());

describe('retention tiers', () => {
  it('averages each point per closed hour, then drops raw partitions past the retention, keeping energy', async () => {
    const db = server.database.db;
    const [device] = await queryRows<{ id: number }>(db, sql`select id from devices order by id limit 1`);
    const id = device?.id ?? 0;
    // A month long past the retention gets its own partition, as it had when it was current.
    const old = new Date(Date.UTC(new Date().getUTCFullYear() - 1, 0, 10));
    await createTelemetryRepository(db).ensureReadingPartitions(old, 0);
    const hour = Date.UTC(old.getUTCFullYear(), 0, 10, 10);
    for (const [minute, a, b] of [
      [0, 100, 1],
      [20, 200, 3],
      [40, 300, Number.NaN],
    ] as const) {
      await db.execute(
        sql`insert into readings (device_id, ts, values) values (${id}, ${new Date(hour + minute * 60_000).toISOString()}::timestamptz, ${`{${a},${b}}`}::real[])`,
      );
    }
    await db.execute(
      sql`insert into device_energy_daily (device_id, day, counter_min_wh, counter_max_wh, first_wh, last_wh, energy_wh) values (${id}, ${old.toISOString().slice(0, 10)}::date, 10, 500, 10, 500, 490)`,
    );
    await db.execute(
      sql`insert into job_state (name, watermark) values ('hourly', ${new Date(hour).toISOString()}::timestamptz) on conflict (name) do update set watermark = excluded.watermark`,
    );
    await db.execute(
      sql`insert into job_state (name, watermark) values ('5m', ${new Date(hour).toISOString()}::timestamptz) on conflict (name) do update set watermark = excluded.watermark`,
    );
    let hours = 0;
    // Runs advance two days at a time: catch up as the background job would.
    for (let run = 0, done = 1; done > 0 && run < 400; run++) {
      done = await server.telemetry.retention.aggregate('hourly');
      hours += done;
    }
    for (let run = 0, done = 1; done > 0 && run < 400; run++) done = await server.telemetry.retention.aggregate('5m');
    expect(hours).toBeGreaterThan(0);
    const [fiveMinutes] = await queryRows<{ values: number[]; samples: number }>(
      db,
      sql`select values, samples from readings_5m where device_id = ${id} and bucket = ${new Date(hour + 20 * 60_000).toISOString()}::timestamptz`,
    );
    expect(fiveMinutes).toMatchObject({ values: [200, 3], samples: 1 });
    const [hourly] = await queryRows<{ values: number[]; samples: number }>(
      db,
      sql`select values, samples from readings_hourly where device_id = ${id} and hour = ${new Date(hour).toISOString()}::timestamptz`,
    );
    expect(hourly?.samples).toBe(3);
    expect(hourly?.values[0]).toBe(200);
    expect(hourly?.values[1]).toBe(2);
    const dropped = await server.telemetry.retention.dropExpiredPartitions();
    const name = `readings_${old.getUTCFullYear()}_01`;
    expect(dropped).toContain(name);
    const raw = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from readings where device_id = ${id} and ts < ${new Date(hour + 3_600_000).toISOString()}::timestamptz`,
    );
    expect(raw[0]?.n).toBe(0);
    const energy = await server.telemetry.queries.deviceDailyEnergy(id, old.toISOString().slice(0, 10), old.toISOString().slice(0, 10));
    expect(energy[0]?.energyWh).toBe(490);
    const stillHourly = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from readings_hourly where device_id = ${id}`);
    expect(stillHourly[0]?.n).toBeGreaterThan(0);
  });

  it('deletes gateway connection log entries past CONNECTION_LOG_RETENTION_DAYS in batches, keeping recent ones', async () => {
    const db = server.database.db;
    const now = Date.now();
    // 7 entries 31..37 days old (past the 30-day setting) and 2 from yesterday and today.
    for (const daysAgo of [31, 32, 33, 34, 35, 36, 37, 1, 0]) {
      await db.execute(
        sql`insert into gateway_connection_log (at, gateway_sn, kind, reason) values (${new Date(now - daysAgo * 86_400_000 - 60_000).toISOString()}::timestamptz, 'RET-GW-1', 'disconnect', 'test')`,
      );
    }
    // Batches of 3: several short deletes, together every old row.
    const deleted = await server.telemetry.retention.purgeConnectionLog(new Date(now), 3);
    expect(deleted).toBeGreaterThanOrEqual(7);
    const left = await queryRows<{ n: number; oldest: string }>(
      db,
      sql`select count(*)::int as n, min(at)::text as oldest from gateway_connection_log where gateway_sn = 'RET-GW-1'`,
    );
    expect(left[0]?.n).toBe(2);
    expect(new Date(left[0]?.oldest ?? 0).getTime()).toBeGreaterThan(now - 30 * 86_400_000);
    expect(await server.telemetry.retention.purgeConnectionLog(new Date(now), 3)).toBe(0);
  });
});
