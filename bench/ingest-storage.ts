// Ingest storage benchmark: the database side of ingest alone, without MQTT or decoding, so that storage
// changes can be compared on a busy machine. Synthetic in-order batches of 2,000 readings (one per device,
// 500 gateways × 10 hybrid inverters, rising counters) go through the telemetry repository's writeBatch;
// every 25 batches (5 s of 10,000 readings/s) the plant-day refresh runs on the plant-days they touched.
//   npx tsx bench/ingest-storage.ts [--batches 100] [--postgres postgres://postgres@127.0.0.1:5432/test]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../apps/server/src/db/client.js';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { provisionLoadFleet } from '../apps/server/src/features/fleet/load-fleet.js';
import { createTelemetryRepository } from '../apps/server/src/ingest/telemetry.repository.js';
import { createTelemetryQueries } from '../apps/server/src/ingest/telemetry-query.repository.js';

const { values: args } = parseArgs({
  options: {
    batches: { type: 'string', default: '100' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const B = Number(args.batches);
const BATCH = 2000;
const scratch = await createScratchDatabase(args.postgres ?? '', 'sunward_storage');
const handle = await openDatabase({ dataDir: mkdtempSync(join(tmpdir(), 'sunward-storage-')), databaseUrl: scratch.url });
try {
  const db = handle.db;
  await provisionLoadFleet(db, {
    gateways: 500,
    devicesPerGateway: 10,
    protocolId: 'sunspec-hybrid-lv',
    intervalSeconds: 60,
    mqttUrl: 'mqtt://127.0.0.1:1883',
    seed: 1,
    prefix: 'S',
  });
  const repository = createTelemetryRepository(db);
  const queries = createTelemetryQueries(db);
  const devices = await repository.loadDevices();
  const start = Date.now() - 3_600_000;
  const writes: number[] = [];
  const refreshes: number[] = [];
  const dirty = new Map<string, { plantId: number; day: string }>();
  for (let b = 0; b < B; b++) {
    const offset = (b * BATCH) % devices.length;
    const slice = devices.slice(offset, offset + BATCH);
    const ts = new Date(start + b * 200);
    const rows = slice.map((d) => ({ device: d, counterWh: 1e8 + b * 10 + d.id, powerW: 1000 + b }));
    const began = performance.now();
    await repository.writeBatch({
      readings: rows.map((r) => ({ deviceId: r.device.id, ts, values: Array.from({ length: 89 }, (_, k) => 1000 + k + b) })),
      realtime: rows.map((r) => ({ deviceId: r.device.id, ts, powerW: r.powerW, energyTotalWh: r.counterWh, soc: 50 })),
      energy: rows.map((r) => ({
        deviceId: r.device.id,
        ts,
        counterWh: r.counterWh,
        powerW: r.powerW,
        timezone: r.device.timezone,
        protocolId: r.device.protocolId,
      })),
      statuses: rows.map((r) => ({ deviceId: r.device.id, status: 1, ts })),
      openEvents: [],
      clearEvents: [],
      gateways: [...new Set(slice.map((d) => d.gatewayId ?? 0))].map((gatewayId) => ({ gatewayId, lastSeq: b, gaps: 0, at: ts })),
    });
    writes.push(performance.now() - began);
    const day = ts.toISOString().slice(0, 10);
    for (const d of slice) if (d.plantId !== null) dirty.set(`${d.plantId}|${day}`, { plantId: d.plantId, day });
    if (b % 25 === 24) {
      const refreshBegan = performance.now();
      await queries.refreshPlantDays([...dirty.values()]);
      refreshes.push(performance.now() - refreshBegan);
      dirty.clear();
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  console.log(
    `${B} batches of ${BATCH} readings: writeBatch median ${median(writes).toFixed(0)} ms (${((BATCH * 1000) / median(writes)).toFixed(0)} readings/s on one connection); ` +
      `plant-day refresh of 500 plants median ${median(refreshes).toFixed(0)} ms (${refreshes.length} runs)`,
  );
} finally {
  await handle.close();
  await scratch.drop();
}
