import type { SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { protocolById } from '@sunward/protocol/maps/index';
import { type BatteryState, dispatchSelfConsumption, stepBattery } from './physics/battery.js';
import { type CloudModel, createCloudModel } from './physics/clouds.js';
import { createEnergyCounter, type EnergyCounter, integrate } from './physics/counters.js';
import { loadPower } from './physics/load.js';
import { localDayOfWeek, localHour } from './physics/local-time.js';
import { pvPower, splitMppt } from './physics/pv.js';
import type { Random } from './physics/random.js';
import { clearSkyGhi, planeOfArray, solarPosition } from './physics/sun.js';

/** One PV string (MPP tracker) of an inverter: its DC side and its own lifetime energy. */
export interface StringSnapshot {
  voltageV: number;
  currentA: number;
  powerW: number;
  energyWh: number;
}

/** A PV inverter's (or hybrid's) PV side: the strings add up to the DC totals. */
export interface PvDeviceSnapshot {
  acW: number;
  dcW: number;
  /** Σ string currents (the trackers are in parallel on the DC bus). */
  dcA: number;
  /** Power-weighted mean string voltage, so dcW = dcV × dcA. */
  dcV: number;
  strings: StringSnapshot[];
  /** Lifetime AC energy (the inverter's WH). */
  acEnergyWh: number;
  /** Lifetime PV (DC) energy: exactly Σ strings' energyWh. */
  dcEnergyWh: number;
}

/** The battery bank as every device that looks at it sees it (BMS, hybrid inverter's battery page). */
export interface BatterySnapshot {
  tempC: number;
  voltageV: number;
  /** + discharge, − charge, = powerW / voltageV. */
  currentA: number;
  cellV: number[];
  cellT: number[];
}

/** What a plant's devices measure at one instant, in engineering units. */
export interface PlantSnapshot {
  at: Date;
  ghi: number;
  poa: number;
  ambientC: number;
  moduleC: number;
  windMs: number;
  humidityPct: number;
  pvW: number;
  loadW: number;
  /** + discharge, − charge. */
  batteryW: number;
  /** + import, − export. */
  gridW: number;
  socPct: number;
  frequencyHz: number;
  /** Per PV device (inverters, hybrids, micro-inverters). */
  pvDevices: Map<string, PvDeviceSnapshot>;
  /** Devices with a power and a counter of their own (optimizers, combiner boxes, heat pumps, switches). */
  otherDevices: Map<string, { powerW: number; energyWh: number }>;
  battery: BatterySnapshot | undefined;
  counters: {
    pv: Map<string, number>;
    gridImportWh: number;
    gridExportWh: number;
    loadWh: number;
    chargeWh: number;
    dischargeWh: number;
  };
}

export interface StepOptions {
  /** Devices producing nothing (switched off by a command, or in a fault). */
  shutdown: ReadonlySet<string>;
  powerLimitPct: ReadonlyMap<string, number>;
  /** The battery settings written to the bank (BMS or hybrid inverter): they narrow what the hardware allows. */
  battery?: BatteryLimits;
  /** Heat pumps set to standby: they draw only their controller's standby power. */
  standby?: ReadonlySet<string>;
}

/** Settings a device takes over the protocol that bound the bank's dispatch (SOC window, power limits). */
export interface BatteryLimits {
  minSocPct?: number;
  maxSocPct?: number;
  maxChargeW?: number;
  maxDischargeW?: number;
  /** A demand-response discharge at this power (W) instead of self-consumption; 0 or absent: self-consumption. */
  forceDischargeW?: number;
}

/** A heat pump controller's own draw in standby, W. */
const STANDBY_W = 12;

const CELLS = 16;
const CELL_SENSORS = 8;
const PV_FAMILIES = ['inverter', 'hybrid_inverter', 'micro_inverter'];

/** MPP trackers of a device: as many as its register map has string points (DCW1, DCW2, …). */
export function trackerCount(protocolId: string): number {
  const protocol = protocolById(protocolId);
  const count = protocol ? protocol.points.filter((p) => /^DCW\d+$/.test(p.id)).length : 0;
  return Math.max(1, count);
}

/**
 * One plant's physics: sun, day-to-day weather, clouds, PV, load, battery and grid balance, with
 * counters that only grow. Counters start at zero: the plant's lifetime is what the simulator played.
 */
export function createPlantModel(gateway: SimulatedGateway, random: Random) {
  const plant = gateway.plant;
  const clouds: CloudModel = createCloudModel(random.fork('clouds'), { cloudiness: random.fork('climate').next() * 0.6 });
  const weather = random.fork('weather');
  const pvDevices = gateway.devices.filter((d) => PV_FAMILIES.includes(d.family));
  const totalRated = pvDevices.reduce((sum, d) => sum + (d.ratedPowerW ?? 0), 0) || 1;
  const batteryDevice = gateway.devices.find((d) => d.family === 'battery' && !d.parentSn);
  let battery: BatteryState | undefined = batteryDevice
    ? {
        socPct: 40 + random.fork('soc').next() * 40,
        capacityKwh: batteryDevice.capacityKwh ?? 10,
        maxChargeW: (batteryDevice.capacityKwh ?? 10) * 500,
        maxDischargeW: (batteryDevice.capacityKwh ?? 10) * 500,
        minSocPct: 10,
        maxSocPct: 100,
        roundTripEfficiency: 0.92,
      }
    : undefined;
  /** What the bank's hardware allows; written settings only narrow it. */
  const hardware = battery ? { ...battery } : undefined;
  let batteryTempC: number | undefined;
  const trackers = new Map(pvDevices.map((d) => [d.sn, d.family === 'micro_inverter' ? 4 : trackerCount(d.protocolId)]));
  // Each inverter's strings have their own length and orientation (fixed per device), plus a little jitter.
  const stringRandom = new Map(pvDevices.map((d) => [d.sn, random.fork(`strings-${d.sn}`)]));
  const acCounters = new Map<string, EnergyCounter>();
  const stringCounters = new Map<string, EnergyCounter[]>();
  const resetPvCounters = (sn: string) => {
    acCounters.set(sn, createEnergyCounter());
    stringCounters.set(
      sn,
      Array.from({ length: trackers.get(sn) ?? 1 }, () => createEnergyCounter()),
    );
  };
  for (const d of pvDevices) resetPvCounters(d.sn);
  const otherFamilies = ['optimizer', 'combiner_box', 'heat_pump', 'ac_switch'];
  const others = gateway.devices.filter((d) => otherFamilies.includes(d.family));
  const otherCounters = new Map(others.map((d) => [d.sn, createEnergyCounter()]));
  const gridImport = createEnergyCounter();
  const gridExport = createEnergyCounter();
  const load = createEnergyCounter();
  const charge = createEnergyCounter();
  const discharge = createEnergyCounter();
  const noise = random.fork('noise');
  const cellSpread = random.fork('cells');
  const cellOffsets = Array.from({ length: CELLS }, () => cellSpread.normal(0, 0.004));
  const sensorOffsets = Array.from({ length: CELL_SENSORS }, () => cellSpread.normal(0, 0.6));
  const baseLoadKw = plant.load === 'commercial' ? plant.capacityKwp * 0.5 : Math.max(0.6, plant.capacityKwp * 0.12);
  const panelAzimuth = plant.latitude >= 0 ? 180 : 0;
  const tilt = Math.min(35, Math.abs(plant.latitude) * 0.8 + 5);
  const gridHz = plant.longitude < -30 && plant.longitude > -170 && plant.latitude > 0 ? 60 : 50;
  // Day-to-day weather: a clear, hazy or overcast day, persisting a little from one day to the next.
  let weatherDay: number | undefined;
  let dayFactor = 1;
  let last: Date | undefined;

  return {
    /** Advances the plant to `at` and returns what its devices measure. */
    step(at: Date, options: StepOptions): PlantSnapshot {
      const dt = last ? Math.max(0, (at.getTime() - last.getTime()) / 1000) : 0;
      last = at;
      const day = Math.floor((at.getTime() + (plant.longitude / 15) * 3_600_000) / 86_400_000);
      if (day !== weatherDay) {
        const draw = weather.next();
        const today = draw < 0.55 ? 1 : draw < 0.8 ? 0.75 : draw < 0.93 ? 0.5 : 0.25;
        dayFactor = weatherDay === undefined ? today : 0.4 * dayFactor + 0.6 * today;
        weatherDay = day;
      }
      const sun = solarPosition(at, plant.latitude, plant.longitude);
      const ghi = clearSkyGhi(sun.elevationDeg) * clouds.step(dt) * dayFactor;
      const poa = planeOfArray(ghi, sun.elevationDeg, sun.azimuthDeg, tilt, panelAzimuth);
      const hour = localHour(at, plant.timezone);
      const climate = 22 - Math.abs(plant.latitude) * 0.3;
      const ambientC = climate + 6 * Math.sin(((hour - 9) / 24) * 2 * Math.PI) + noise.normal(0, 0.3) - (1 - dayFactor) * 3;
      const windMs = Math.max(0, 2.5 + noise.normal(0, 0.8));
      const perDevice = new Map<string, PvDeviceSnapshot>();
      let pvW = 0;
      let pvDcW = 0;
      let moduleC = ambientC;
      // Optimizers sit under the first inverter's panels: a shaded (or switched-off) panel's loss is the array's loss,
      // and each optimizer reports its panel's share of what that inverter feeds, so the layout's logical tree
      // (inverter = Σ its optimizers) reconciles with the inverter's own power.
      const optimizers = others.filter((d) => d.family === 'optimizer');
      const lit = (d: (typeof others)[number]) => (options.shutdown.has(d.sn) ? 0 : (d.ratedPowerW ?? 450) * (1 - (d.shading ?? 0)));
      const optimizerRatedW = optimizers.reduce((a, d) => a + (d.ratedPowerW ?? 450), 0);
      const optimizerLitW = optimizers.reduce((a, d) => a + lit(d), 0);
      const firstPv = pvDevices[0];
      const firstCapacityW = firstPv ? (plant.capacityKwp * 1000 * (firstPv.ratedPowerW ?? 0)) / totalRated : 0;
      const covered = firstCapacityW > 0 ? Math.min(1, optimizerRatedW / firstCapacityW) : 0;
      const shadedShare = optimizerRatedW > 0 ? covered * (1 - optimizerLitW / optimizerRatedW) : 0;
      for (const device of pvDevices) {
        const share = (device.ratedPowerW ?? 0) / totalRated;
        const limit = options.powerLimitPct.get(device.sn) ?? 100;
        const out = pvPower({
          poaIrradiance: poa,
          ambientTempC: ambientC,
          capacityKwp: plant.capacityKwp * share * (device === firstPv ? 1 - shadedShare : 1),
          windSpeed: windMs,
          inverterMaxW: ((device.ratedPowerW ?? 1000) * limit) / 100,
        });
        const off = options.shutdown.has(device.sn);
        const acW = off ? 0 : out.acW;
        const dcW = off ? 0 : out.dcW;
        moduleC = out.moduleTempC;
        const counters = stringCounters.get(device.sn) ?? [];
        const split = splitMppt(dcW, counters.length || 1, stringRandom.get(device.sn) ?? noise);
        const strings = split.map((m, i) => {
          counters[i]?.add(integrate(m.powerW, dt));
          return { voltageV: m.voltageV, currentA: m.currentA, powerW: m.powerW, energyWh: counters[i]?.value() ?? 0 };
        });
        const dcA = strings.reduce((s, m) => s + m.currentA, 0);
        acCounters.get(device.sn)?.add(integrate(acW, dt));
        perDevice.set(device.sn, {
          acW,
          dcW,
          dcA,
          dcV: dcA > 0 ? dcW / dcA : 0,
          strings,
          acEnergyWh: acCounters.get(device.sn)?.value() ?? 0,
          dcEnergyWh: strings.reduce((s, m) => s + m.energyWh, 0),
        });
        pvW += acW;
        pvDcW += dcW;
      }
      const loadW = loadPower(plant.load, hour, localDayOfWeek(at, plant.timezone), baseLoadKw, noise);
      let batteryW = 0;
      let batterySnapshot: BatterySnapshot | undefined;
      if (battery && hardware) {
        const limits = options.battery ?? {};
        battery = {
          ...battery,
          minSocPct: Math.max(hardware.minSocPct, limits.minSocPct ?? hardware.minSocPct),
          maxSocPct: Math.min(hardware.maxSocPct, limits.maxSocPct ?? hardware.maxSocPct),
          maxChargeW: Math.min(hardware.maxChargeW, limits.maxChargeW ?? hardware.maxChargeW),
          maxDischargeW: Math.min(hardware.maxDischargeW, limits.maxDischargeW ?? hardware.maxDischargeW),
        };
        // A bank in a fault (or disconnected) neither charges nor discharges.
        const idle = batteryDevice !== undefined && options.shutdown.has(batteryDevice.sn);
        // A demand-response event discharges at the asked power (stepBattery still keeps the SOC floor and limits).
        const forced = limits.forceDischargeW ?? 0;
        const plan = idle
          ? { batteryW: 0 }
          : forced > 0
            ? { batteryW: forced }
            : dispatchSelfConsumption({ pvW, loadW, battery, dtSeconds: Math.max(dt, 1) });
        const result = stepBattery(battery, plan.batteryW, dt);
        battery = result.state;
        batteryW = result.actualW;
        charge.add(result.chargedWh);
        discharge.add(result.dischargedWh);
        // The pack warms with its current and follows the room (the ambient) over an hour or so.
        const target = ambientC + 4 + Math.abs(batteryW) / 2000;
        batteryTempC = batteryTempC === undefined ? target : batteryTempC + (target - batteryTempC) * Math.min(1, dt / 3600);
        const cell = 3.2 + battery.socPct * 0.0015 - batteryW / 1e6;
        const cellV = cellOffsets.map((o) => Math.round((cell + o) * 1000) / 1000);
        const voltageV = cellV.reduce((s, v) => s + v, 0);
        const tempC = batteryTempC;
        batterySnapshot = {
          tempC,
          voltageV,
          currentA: batteryW / voltageV,
          cellV,
          cellT: sensorOffsets.map((o) => Math.round((tempC + o) * 10) / 10),
        };
      }
      const otherDevices = new Map<string, { powerW: number; energyWh: number }>();
      const firstInverter = perDevice.values().next().value;
      for (const device of others) {
        let w = 0;
        if (device.family === 'optimizer') {
          // Its panel's share of the covered part of the first inverter's output, within ±0.2 % measuring noise.
          const fed = (firstInverter?.acW ?? 0) * covered;
          w = optimizerLitW > 0 ? Math.max(0, ((fed * lit(device)) / optimizerLitW) * (1 + noise.normal(0, 0.002))) : 0;
        } else if (device.family === 'combiner_box') {
          // The combiner gathers the strings of the plant's first inverter.
          w = firstInverter?.dcW ?? pvDcW;
        } else if (options.standby?.has(device.sn)) {
          w = STANDBY_W;
        } else {
          w = Math.max(0, loadW * (device.family === 'heat_pump' ? 0.3 : 0.15) + noise.normal(0, 20));
        }
        const counter = otherCounters.get(device.sn);
        counter?.add(integrate(w, dt));
        otherDevices.set(device.sn, { powerW: w, energyWh: counter?.value() ?? 0 });
      }
      const gridW = loadW - pvW - batteryW;
      gridImport.add(integrate(Math.max(0, gridW), dt));
      gridExport.add(integrate(Math.max(0, -gridW), dt));
      load.add(integrate(loadW, dt));
      return {
        at,
        ghi,
        poa,
        ambientC,
        moduleC,
        windMs,
        humidityPct: Math.min(100, Math.max(15, 60 - (ambientC - climate) * 3 + (1 - dayFactor) * 25 + noise.normal(0, 2))),
        pvW,
        loadW,
        batteryW,
        gridW,
        socPct: battery?.socPct ?? 0,
        frequencyHz: gridHz + noise.normal(0, 0.01),
        pvDevices: perDevice,
        otherDevices,
        battery: batterySnapshot,
        counters: {
          pv: new Map([...acCounters].map(([sn, c]) => [sn, c.value()])),
          gridImportWh: gridImport.value(),
          gridExportWh: gridExport.value(),
          loadWh: load.value(),
          chargeWh: charge.value(),
          dischargeWh: discharge.value(),
        },
      };
    },

    /** The device's energy counters were replaced (a new board): they start again from zero. */
    replaceCounters(sn: string): void {
      if (acCounters.has(sn)) resetPvCounters(sn);
      if (otherCounters.has(sn)) otherCounters.set(sn, createEnergyCounter());
    },
  };
}

export type PlantModel = ReturnType<typeof createPlantModel>;
