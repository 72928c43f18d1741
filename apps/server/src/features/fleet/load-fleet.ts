import { randomBytes } from 'node:crypto';
import { PlantType } from '@sunward/contracts/device-status';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import type { Database } from '../../db/client.js';
import { companies, devices, gateways, plants } from '../../db/schema.js';
import { hashGatewayKey } from '../../ingest/gateway-auth.js';

const PROTOCOL_FAMILY: Record<string, string> = {
  'sunspec-hybrid-lv': 'hybrid_inverter',
  'sunspec-hybrid-hv': 'hybrid_inverter',
  'sunspec-inverter-3p': 'inverter',
  'sunspec-inverter-1p': 'inverter',
};

/**
 * Registers a load-test fleet in bulk: G gateways with D devices of one register map, one small plant
 * each, under a company of their own. Returns the fleet the simulator plays (keys included).
 */
export async function provisionLoadFleet(
  db: Database,
  options: {
    gateways: number;
    devicesPerGateway: number;
    protocolId: string;
    intervalSeconds: number;
    mqttUrl: string;
    seed: number;
    prefix: string;
  },
): Promise<SimulatedFleet> {
  const [company] = await db
    .insert(companies)
    .values({ name: `Load fleet ${options.prefix} ${Date.now()}` })
    .returning({ id: companies.id });
  const fleet: SimulatedFleet = { seed: options.seed, mqttUrl: options.mqttUrl, gateways: [] };
  const family = PROTOCOL_FAMILY[options.protocolId] ?? 'inverter';
  for (let start = 0; start < options.gateways; start += 100) {
    const slice = Array.from({ length: Math.min(100, options.gateways - start) }, (_, i) => start + i);
    const site = { latitude: 48.1, longitude: 11.6, timezone: 'Europe/Berlin', capacityKwp: 10 };
    const plantRows = await db
      .insert(plants)
      .values(slice.map((i) => ({ name: `Load plant ${options.prefix}${i}`, companyId: company?.id, plantType: PlantType.GRID, ...site })))
      .returning({ id: plants.id });
    const keys = slice.map(() => randomBytes(8).toString('hex'));
    const gatewayRows = await db
      .insert(gateways)
      .values(
        slice.map((i, k) => ({
          sn: `${options.prefix}G${String(i).padStart(6, '0')}`,
          keyHash: hashGatewayKey(keys[k] ?? ''),
          plantId: plantRows[k]?.id,
          companyId: company?.id,
          reportIntervalS: options.intervalSeconds,
        })),
      )
      .returning({ id: gateways.id, sn: gateways.sn });
    const deviceRows = gatewayRows.flatMap((gw, k) =>
      Array.from({ length: options.devicesPerGateway }, (_, d) => ({
        sn: `${options.prefix}D${gw.sn.slice(options.prefix.length + 1)}${String(d).padStart(3, '0')}`,
        gatewayId: gw.id,
        plantId: plantRows[k]?.id,
        family,
        protocolId: options.protocolId,
        ratedPowerW: 10_000 / options.devicesPerGateway,
      })),
    );
    await db.insert(devices).values(deviceRows);
    for (const [k, gw] of gatewayRows.entries()) {
      fleet.gateways.push({
        sn: gw.sn,
        key: keys[k] ?? '',
        intervalSeconds: options.intervalSeconds,
        plant: { name: `Load plant ${k}`, plantType: PlantType.GRID, load: 'household', ...site },
        devices: deviceRows
          .filter((r) => r.gatewayId === gw.id)
          .map((r) => ({ sn: r.sn, protocolId: r.protocolId, family, ratedPowerW: r.ratedPowerW })),
      });
    }
  }
  return fleet;
}
