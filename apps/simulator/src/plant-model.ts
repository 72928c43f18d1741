import type { SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { type BatteryState, dispatchSelfConsumption, stepBattery } from './physics/battery.js';
import { type CloudModel, createCloudModel } from './physics/clouds.js';
import { createEnergyCounter, type EnergyCounter, integrate } from './physics/counters.js';
import { loadPower } from './physics/load.js';
import { localDayOfWeek, localHour } from './physics/local-time.js';
import { pvPower, splitMppt } from './physics/pv.js';
import type { Random } from './physics/random.js';
import { clearSkyGhi, planeOfArray, solarPosition } from './physics/sun.js';

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
  /** Per PV device (inverters, hybrids, optimizers): its AC (or DC for optimizers) power and MPPT split. */
  pvDevices: Map<string, { acW: number; dcW: number; mppt: { voltageV: number; currentA: number; powerW: number }[] }>;
  counters: {
    pv: Map<string, number>;
    gridImportWh: number;
    gridExportWh: number;
    loadWh: number;
    chargeWh: number;
    dischargeWh: number;
  };
}

/** One plant's physics: sun, clouds, PV, load, battery and grid balance, with counters that only grow. */
export function createPlantModel(gateway: SimulatedGateway, random: Random) {
  const plant = gateway.plant;
  const clouds: CloudModel = createCloudModel(random.fork('clouds'), { cloudiness: random.fork('climate').next() * 0.6 });
  const pvDevices = gateway.devices.filter((d) => ['inverter', 'hybrid_inverter', 'micro_inverter'].includes(d.family));
  const totalRated = pvDevices.reduce((sum, d) => sum + (d.ratedPowerW ?? 0), 0) || 1;
  const batteryDevice = gateway.devices.find((d) => d.family === 'battery');
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
  // Counters start where a plant of this size and a few years of age would be.
  const ageWh = plant.capacityKwp * 1000 * 1200 * (1 + random.fork('age').next() * 3);
  const pvCounters = new Map<string, EnergyCounter>(
    pvDevices.map((d) => [d.sn, createEnergyCounter(Math.round((ageWh * (d.ratedPowerW ?? 0)) / totalRated))]),
  );
  const gridImport = createEnergyCounter(Math.round(ageWh * 0.4));
  const gridExport = createEnergyCounter(Math.round(ageWh * 0.3));
  const load = createEnergyCounter(Math.round(ageWh * 0.9));
  const charge = createEnergyCounter(Math.round(ageWh * 0.1));
  const discharge = createEnergyCounter(Math.round(ageWh * 0.09));
  const noise = random.fork('noise');
  const baseLoadKw = plant.load === 'commercial' ? plant.capacityKwp * 0.5 : Math.max(0.6, plant.capacityKwp * 0.12);
  const panelAzimuth = plant.latitude >= 0 ? 180 : 0;
  const tilt = Math.min(35, Math.abs(plant.latitude) * 0.8 + 5);
  const gridHz = plant.longitude < -30 && plant.longitude > -170 && plant.latitude > 0 ? 60 : 50;
  let last: Date | undefined;

  return {
    /** Advances the plant to `at` and returns what its devices measure. */
    step(at: Date, options: { shutdown: ReadonlySet<string>; powerLimitPct: ReadonlyMap<string, number> }): PlantSnapshot {
      const dt = last ? Math.max(0, (at.getTime() - last.getTime()) / 1000) : 0;
      last = at;
      const sun = solarPosition(at, plant.latitude, plant.longitude);
      const ghi = clearSkyGhi(sun.elevationDeg) * clouds.step(dt);
      const poa = planeOfArray(ghi, sun.elevationDeg, sun.azimuthDeg, tilt, panelAzimuth);
      const hour = localHour(at, plant.timezone);
      const climate = 22 - Math.abs(plant.latitude) * 0.3;
      const ambientC = climate + 6 * Math.sin(((hour - 9) / 24) * 2 * Math.PI) + noise.normal(0, 0.3);
      const windMs = Math.max(0, 2.5 + noise.normal(0, 0.8));
      const perDevice = new Map<string, { acW: number; dcW: number; mppt: { voltageV: number; currentA: number; powerW: number }[] }>();
      let pvW = 0;
      let moduleC = ambientC;
      for (const device of pvDevices) {
        const share = (device.ratedPowerW ?? 0) / totalRated;
        const limit = options.powerLimitPct.get(device.sn) ?? 100;
        const out = pvPower({
          poaIrradiance: poa,
          ambientTempC: ambientC,
          capacityKwp: plant.capacityKwp * share,
          windSpeed: windMs,
          inverterMaxW: ((device.ratedPowerW ?? 1000) * limit) / 100,
        });
        const off = options.shutdown.has(device.sn);
        const acW = off ? 0 : out.acW;
        const dcW = off ? 0 : out.dcW;
        moduleC = out.moduleTempC;
        perDevice.set(device.sn, {
          acW,
          dcW,
          mppt: splitMppt(dcW, device.family === 'micro_inverter' ? 4 : device.protocolId.endsWith('1p') ? 2 : 3, noise),
        });
        pvW += acW;
        pvCounters.get(device.sn)?.add(integrate(acW, dt));
      }
      const loadW = loadPower(plant.load, hour, localDayOfWeek(at, plant.timezone), baseLoadKw, noise);
      let batteryW = 0;
      if (battery) {
        const plan = dispatchSelfConsumption({ pvW, loadW, battery, dtSeconds: Math.max(dt, 1) });
        const result = stepBattery(battery, plan.batteryW, dt);
        battery = result.state;
        batteryW = result.actualW;
        charge.add(result.chargedWh);
        discharge.add(result.dischargedWh);
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
        humidityPct: Math.min(100, Math.max(15, 60 - (ambientC - climate) * 3 + noise.normal(0, 2))),
        pvW,
        loadW,
        batteryW,
        gridW,
        socPct: battery?.socPct ?? 0,
        frequencyHz: gridHz + noise.normal(0, 0.01),
        pvDevices: perDevice,
        counters: {
          pv: new Map([...pvCounters].map(([sn, c]) => [sn, c.value()])),
          gridImportWh: gridImport.value(),
          gridExportWh: gridExport.value(),
          loadWh: load.value(),
          chargeWh: charge.value(),
          dischargeWh: discharge.value(),
        },
      };
    },
  };
}

export type PlantModel = ReturnType<typeof createPlantModel>;
