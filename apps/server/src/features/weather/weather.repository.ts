import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, sqlRows } from '../../db/rows.js';
import { deviceRealtime, devices, plants } from '../../db/schema.js';
import { LATEST_VALUES } from '../../ingest/telemetry-query.repository.js';

export interface StationSnapshot {
  protocolId: string;
  ts: Date;
  values: number[];
}

/** Reads for the weather call: the plant's place and its weather station's latest reading. */
export function createWeatherRepository(db: Database) {
  return {
    async place(plantId: number): Promise<{ latitude: number; longitude: number } | undefined> {
      const [row] = await db.select({ latitude: plants.latitude, longitude: plants.longitude }).from(plants).where(eq(plants.id, plantId));
      return row ? { latitude: Number(row.latitude), longitude: Number(row.longitude) } : undefined;
    },

    /** The plant's first weather station with a reading (several stations: the oldest registered). */
    async station(plantId: number): Promise<StationSnapshot | undefined> {
      const [row] = await sqlRows(
        db,
        { protocol_id: devices.protocolId, ts: deviceRealtime.ts, values: computed.numbers },
        sql`select d.protocol_id, r.ts, ${LATEST_VALUES} as values from devices d join device_realtime r on r.device_id = d.id
            where d.plant_id = ${plantId} and d.family = 'weather_station' order by d.id limit 1`,
      );
      return row ? { protocolId: row.protocol_id, ts: row.ts, values: row.values } : undefined;
    },
  };
}

export type WeatherRepository = ReturnType<typeof createWeatherRepository>;
