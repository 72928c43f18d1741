import { randomBytes } from 'node:crypto';
import { PlantType } from '@sunward/contracts/device-status';
import { LAYOUT_GRID, PANEL_LONG, PANEL_SHORT, type PhysicalLayout } from '@sunward/contracts/plant-layout';
import type { Tariff } from '@sunward/contracts/plants';
import type { SimulatedFleet, SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { acSwitches, companies, companyApps, devices, gateways, plantLayouts, plants } from '../../db/schema.js';
import { hashGatewayKey } from '../../ingest/gateway-auth.js';
import { DEMO_SITES } from './demo-sites.js';

export const DEMO_COMPANY = 'Sunward Demo Solar';

/** Country of each demo site's time zone, for the list's region filter. */
const REGION_OF_ZONE: Record<string, string> = {
  'Africa/Johannesburg': 'South Africa',
  'Africa/Nairobi': 'Kenya',
  'America/Mexico_City': 'Mexico',
  'America/Phoenix': 'United States',
  'America/Santiago': 'Chile',
  'America/Sao_Paulo': 'Brazil',
  'Asia/Dubai': 'United Arab Emirates',
  'Asia/Ho_Chi_Minh': 'Vietnam',
  'Asia/Kolkata': 'India',
  'Asia/Shanghai': 'China',
  'Asia/Tokyo': 'Japan',
  'Australia/Sydney': 'Australia',
  'Europe/Athens': 'Greece',
  'Europe/Berlin': 'Germany',
  'Europe/Istanbul': 'Turkey',
  'Europe/Lisbon': 'Portugal',
  'Europe/Madrid': 'Spain',
  'Europe/Prague': 'Czechia',
  'Europe/Warsaw': 'Poland',
};

/** Where the spare gateways' simulated panels stand (the plant the user creates may say otherwise). */
const SPARE_SITES: SimulatedGateway['plant'][] = [
  {
    name: 'Spare gateway Valencia',
    latitude: 39.47,
    longitude: -0.376,
    timezone: 'Europe/Madrid',
    capacityKwp: 30,
    plantType: PlantType.GRID,
    load: 'commercial',
  },
  {
    name: 'Spare gateway Hangzhou',
    latitude: 30.274,
    longitude: 120.155,
    timezone: 'Asia/Shanghai',
    capacityKwp: 50,
    plantType: PlantType.GRID,
    load: 'commercial',
  },
];

/** A plausible tariff per demo plant: constant for most, time-of-use for every third, feed-in for storage. */
function demoTariff(index: number, capacityKwp: number, storage: boolean): Tariff {
  const totalInvestment = Math.round(capacityKwp * 900);
  if (storage) return { currency: 'EUR', pricingMethod: 'generation', feedInPrice: 0.08, selfUsePrice: 0.32, totalInvestment };
  if (index % 3 === 0)
    return {
      currency: 'EUR',
      pricingMethod: 'tou',
      segments: [
        { start: '00:00', end: '07:00', price: 0.12 },
        { start: '07:00', end: '17:00', price: 0.24 },
        { start: '17:00', end: '21:00', price: 0.35 },
        { start: '21:00', end: '24:00', price: 0.12 },
      ],
      totalInvestment,
    };
  return { currency: 'EUR', pricingMethod: 'constant', price: 0.18, totalInvestment };
}

type Device = SimulatedGateway['devices'][number];

const OPTIMIZERS_PER_ROOF = 12;
const SHADED_PANEL = 5;

/** The devices a demo plant gets, by its type and size (deterministic from the plant's index). */
export function demoDevices(index: number, site: (typeof DEMO_SITES)[number]): Device[] {
  const tag = String(index + 1).padStart(2, '0');
  const out: Device[] = [];
  const inverterCount = Math.max(1, Math.ceil(site.capacityKwp / 100));
  if (site.plantType === PlantType.DC_COUPLED_STORAGE) {
    out.push({
      sn: `HY${tag}00001`,
      protocolId: site.capacityKwp > 10 ? 'sunspec-hybrid-hv' : 'sunspec-hybrid-lv',
      family: 'hybrid_inverter',
      ratedPowerW: site.capacityKwp * 1000,
    });
    out.push({
      sn: `BT${tag}00001`,
      protocolId: 'sunspec-battery-bms',
      family: 'battery',
      capacityKwh: Math.round(site.capacityKwp * 1.2),
    });
    // A larger bank is a master with slave packs (spec 02: master and slave packs).
    if (site.capacityKwp > 10)
      for (let i = 2; i <= 3; i++)
        out.push({ sn: `BT${tag}0000${i}`, protocolId: 'sunspec-battery-bms', family: 'battery', parentSn: `BT${tag}00001` });
  } else {
    for (let i = 1; i <= inverterCount; i++) {
      out.push({
        sn: `IN${tag}${String(i).padStart(5, '0')}`,
        protocolId: site.capacityKwp > 12 ? 'sunspec-inverter-3p' : 'sunspec-inverter-1p',
        family: 'inverter',
        ratedPowerW: (site.capacityKwp * 1000) / inverterCount,
      });
    }
    if (site.plantType === PlantType.AC_COUPLED_STORAGE) {
      out.push({ sn: `HY${tag}00001`, protocolId: 'sunspec-hybrid-lv', family: 'hybrid_inverter', ratedPowerW: 5000 });
      out.push({ sn: `BT${tag}00001`, protocolId: 'sunspec-battery-bms', family: 'battery', capacityKwh: 10 });
    }
  }
  out.push({ sn: `MT${tag}00001`, protocolId: 'sunspec-meter-3p', family: 'meter' });
  if (site.load === 'commercial') out.push({ sn: `WS${tag}00001`, protocolId: 'sunspec-weather-station', family: 'weather_station' });
  if (site.capacityKwp >= 200) out.push({ sn: `CB${tag}00001`, protocolId: 'sunspec-combiner-box', family: 'combiner_box' });
  // One optimizer per panel on a roof of twelve; the fifth panel is shaded (a chimney, soiling) and loses 45 %.
  if (index % 4 === 1)
    for (let i = 1; i <= OPTIMIZERS_PER_ROOF; i++)
      out.push({
        sn: `OP${tag}${String(i).padStart(5, '0')}`,
        protocolId: 'sunspec-optimizer',
        family: 'optimizer',
        ratedPowerW: 450,
        ...(i === SHADED_PANEL ? { shading: 0.45 } : {}),
      });
  if (index % 5 === 3) out.push({ sn: `HP${tag}00001`, protocolId: 'vendor-heat-pump', family: 'heat_pump', ratedPowerW: 3000 });
  if (index % 6 === 2) out.push({ sn: `SW${tag}00001`, protocolId: 'vendor-ac-switch', family: 'ac_switch' });
  return out;
}

/**
 * The roof of a demo plant with optimizers: two rows of portrait panels, one group wired to the first
 * inverter's first string, each panel on its optimizer (so the layout views show the shaded one at once).
 */
export function demoLayout(list: readonly Device[]): Omit<PhysicalLayout, 'updatedAt'> | undefined {
  const optimizers = list.filter((d) => d.family === 'optimizer');
  if (optimizers.length === 0) return undefined;
  const inverter = list.find((d) => d.family === 'inverter' || d.family === 'hybrid_inverter');
  const perRow = Math.ceil(optimizers.length / 2);
  return {
    version: 1,
    groups: [
      {
        id: 'roof',
        name: 'Roof',
        inclinationDeg: 30,
        azimuthDeg: 180,
        panelRatedPowerW: optimizers[0]?.ratedPowerW ?? 450,
        inverterSn: inverter?.sn ?? null,
        stringNo: inverter ? 1 : null,
      },
    ],
    panels: optimizers.map((o, i) => ({
      id: `p${i + 1}`,
      groupId: 'roof',
      x: 2 * LAYOUT_GRID + (i % perRow) * (PANEL_SHORT + LAYOUT_GRID),
      y: 2 * LAYOUT_GRID + Math.floor(i / perRow) * (PANEL_LONG + LAYOUT_GRID),
      rotation: 0 as const,
      optimizerSn: o.sn,
    })),
  };
}

/**
 * Creates the demo company with its plants, gateways and devices, once. Returns the fleet the
 * simulator plays (with the gateways' keys, which only exist here: the database keeps their hashes).
 */
export async function provisionDemoFleet(
  db: Database,
  options: { seed: number; mqttUrl: string; intervalSeconds: number; historyDays?: number },
): Promise<SimulatedFleet> {
  // The plants went on the grid when the simulator's counters start: the first day of their history.
  const gridDate = new Date(Date.now() - (options.historyDays ?? 0) * 86_400_000).toISOString().slice(0, 10);
  return db.transaction(async (tx) => {
    const [company] = await tx.insert(companies).values({ name: DEMO_COMPANY }).returning({ id: companies.id });
    if (!company) throw new Error('demo company not created');
    const fleet: SimulatedFleet = { seed: options.seed, mqttUrl: options.mqttUrl, gateways: [] };
    for (const [index, site] of DEMO_SITES.entries()) {
      const [plant] = await tx
        .insert(plants)
        .values({
          name: site.name,
          companyId: company.id,
          plantType: site.plantType,
          capacityKwp: site.capacityKwp,
          latitude: site.latitude,
          longitude: site.longitude,
          timezone: site.timezone,
          region: REGION_OF_ZONE[site.timezone] ?? null,
          gridDate,
          tariff: demoTariff(index, site.capacityKwp, site.plantType !== PlantType.GRID),
          meteringTopology: 'net',
        })
        .returning({ id: plants.id });
      if (!plant) throw new Error('demo plant not created');
      const sn = `GW${String(index + 1).padStart(2, '0')}${String(options.seed % 100000).padStart(6, '0')}`;
      // Hex keeps the key within the registration-code rule (2–22 word characters) the binding form applies.
      const key = randomBytes(8).toString('hex');
      const [gateway] = await tx
        .insert(gateways)
        .values({ sn, keyHash: hashGatewayKey(key), plantId: plant.id, companyId: company.id, reportIntervalS: options.intervalSeconds })
        .returning({ id: gateways.id });
      if (!gateway) throw new Error('demo gateway not created');
      const list = demoDevices(index, site);
      await tx.insert(devices).values(
        list.map((d) => ({
          sn: d.sn,
          gatewayId: gateway.id,
          plantId: plant.id,
          family: d.family,
          protocolId: d.protocolId,
          ratedPowerW: d.ratedPowerW ?? null,
          model: d.protocolId,
        })),
      );
      const layout = demoLayout(list);
      if (layout) await tx.insert(plantLayouts).values({ plantId: plant.id, view: 'physical', type: 'default', content: layout });
      for (const slave of list.filter((d) => d.parentSn))
        await tx.execute(sql`update devices set parent_id = (select id from devices where sn = ${slave.parentSn}) where sn = ${slave.sn}`);
      // The plant's AC switches are in the switch registry too (issue 22), so the switch pages show them.
      const switches = list.filter((d) => d.family === 'ac_switch');
      if (switches.length > 0)
        await tx.insert(acSwitches).values(
          switches.map((d) => ({
            sn: d.sn,
            keyHash: hashGatewayKey(randomBytes(8).toString('hex')),
            companyId: company.id,
            plantId: plant.id,
            alias: `${site.name} main switch`,
          })),
        );
      fleet.gateways.push({ sn, key, intervalSeconds: options.intervalSeconds, plant: { ...site }, devices: list });
    }
    // The application centre: the demo company uses smart switches and rules (bulbs need a bridge to be set up).
    await tx
      .insert(companyApps)
      .values((['smart_switch', 'smart_rule'] as const).map((app) => ({ companyId: company.id, app, enabled: true })));
    // Spare gateways, registered but bound to no plant, so the first start can try the plant wizard.
    for (const [index, site] of SPARE_SITES.entries()) {
      const sn = `GWS${index + 1}${String(options.seed % 100000).padStart(6, '0')}`;
      const key = randomBytes(8).toString('hex');
      await tx.insert(gateways).values({ sn, keyHash: hashGatewayKey(key), reportIntervalS: options.intervalSeconds });
      const tag = `S${index + 1}`;
      fleet.gateways.push({
        sn,
        key,
        intervalSeconds: options.intervalSeconds,
        plant: site,
        spare: true,
        devices: [
          { sn: `IN${tag}000001`, protocolId: 'sunspec-inverter-3p', family: 'inverter', ratedPowerW: site.capacityKwp * 1000 },
          { sn: `MT${tag}000001`, protocolId: 'sunspec-meter-3p', family: 'meter' },
        ],
      });
    }
    return fleet;
  });
}

export async function demoFleetExists(db: Database): Promise<boolean> {
  const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.name, DEMO_COMPANY));
  return row !== undefined;
}
