/**
 * Plausible engineering values for every point of a map (a sunny noon: producing, battery charging,
 * no events). The tests round-trip them through every built-in map; the simulator can start from them.
 * Values are already on the map's resolution, so encoding and decoding them gives them back exactly.
 */
import type { DecodedValue, ProtocolDefinition, RegisterPoint } from './types.js';

/** Exponent a device would choose for the unit of the points a scale factor serves. */
const PREFERRED_SCALE_FACTOR: Record<string, number> = { V: -1, A: -2, Hz: -2, '%': -1, '°C': -1 };

/**
 * A device picks its exponents for its rated range, not for today's value: powers and currents get
 * room to grow (a caller may put a larger plant's power on the same scale factors without clamping).
 */
const HEADROOM: Record<string, number> = { W: 20, VA: 20, var: 20, A: 10 };

const BY_ID: Record<string, number> = {
  // inverters and meters
  A: 13.05,
  W: 5210,
  VA: 5300,
  VAr: -420,
  VAR: -420,
  PF: 99.5,
  Hz: 50.01,
  WMaxLimPct: 80,
  OutPFSet: 1,
  BatW: -2680,
  BatA: -52.3,
  GridW: -1250,
  LoadW: 1530,
  AChaMax: 100,
  ADisChaMax: 100,
  SoC: 76.5,
  SoH: 98.2,
  SoCRsvMin: 20,
  SocRsvMax: 95,
  BatChaWMax: 5000,
  BatDisWMax: 5000,
  // battery system
  AHRtg: 200,
  WHRtg: 10240,
  WChaRteMax: 5000,
  WDisChaRteMax: 5000,
  // no demand-response discharge under way
  DrDisW: 0,
  // weather
  GHI: 812,
  POAI: 905,
  DFI: 120,
  DNI: 760,
  RH: 65,
  Pres: 1013,
  WndSpd: 3,
  WndDir: 225,
  Rain: 2,
  // heat pump and switch
  COP: 3.85,
  FlowRate: 1.2,
  SetTmp: 45,
  TankSetTmp: 55,
  WLim: 30000,
  WLimRcl: 27000,
  ALim: 40,
  ALimRcl: 36,
  VLimHi: 265,
  VLimHiRcl: 253,
  VLimLo: 184,
  VLimLoRcl: 196,
  LeakA: 12,
  LeakLim: 30,
  LeakLimRcl: 15,
  TmpLim: 85,
  TmpLimRcl: 75,
  // the switch's self-check (idle, none yet) and its report interval in minutes
  LeakTest: 0,
  LeakTestRes: 0,
  LeakTestMa: 0,
  LeakTestCnt: 0,
  RptIntv: 5,
};

/** Nominal value of a numeric point before it is put on the map's resolution. */
function nominal(protocol: ProtocolDefinition, point: RegisterPoint): number {
  const known = BY_ID[point.id];
  if (known !== undefined) return known;
  const index = Number(/\d+$/.exec(point.id)?.[0] ?? 1);
  if (point.role === 'event_bits') return 0;
  if (point.type === 'bits16' || point.type === 'bits32') return 3;
  if (point.enumeration) {
    const keys = Object.keys(point.enumeration).map(Number);
    // A working device: producing, charging or switched on, whichever the enumeration knows.
    const working = keys.find((key) =>
      /MPPT|Running|Tracking|On \(closed\)|^Charging|^Connected$/.test(point.enumeration?.[key]?.en ?? ''),
    );
    return working ?? keys[Math.min(3, keys.length - 1)] ?? 0;
  }
  const battery = protocol.family === 'battery' || protocol.family === 'hybrid_inverter';
  const highVoltage = protocol.id.endsWith('-hv');
  switch (point.unit) {
    case 'V':
      if (point.id === 'CellVMax') return 3.342;
      if (point.id === 'CellVMin') return 3.298;
      if (point.id.startsWith('CellV')) return 3.3 + index / 1000;
      if (point.id === 'BatVMax') return 460.8;
      if (point.id === 'BatVMin') return 345.6;
      if (point.id === 'BatV' || (battery && point.id === 'V')) return highVoltage ? 409.6 : 53.1;
      if (protocol.family === 'optimizer') return point.id === 'OutV' ? 40.1 : 38.6;
      if (point.id.startsWith('DCV')) return 612.4 - index;
      if (/^(PPV|PhVph(AB|BC|CA))/.test(point.id)) return 400.2;
      return 230.4 + index / 10;
    case 'A':
      if (protocol.family === 'optimizer') return 9.5;
      if (point.id.startsWith('InDCA')) return 9.8 + index / 100;
      if (point.id.startsWith('DCA') && protocol.family === 'combiner_box') return 157.3;
      if (point.id.startsWith('DCA')) return 10.25;
      if (point.id.startsWith('DCAMax')) return 250;
      return 4.35;
    case 'W':
      if (protocol.family === 'optimizer') return point.id === 'OutW' ? 381 : 367;
      if (point.id.startsWith('DCW')) return protocol.family === 'combiner_box' ? 96330 : 3120 + index;
      if (point.id.startsWith('Wph')) return 1737;
      return 5210;
    case 'Wh':
      return 12345678 + index * 1000;
    case '°C':
      if (point.id.startsWith('CellT')) return 25 + index / 10;
      if (point.id === 'WaterInTmp') return 40.5;
      if (point.id === 'WaterOutTmp') return 45.2;
      return 35.5;
    case 'W/m²':
      return 800;
    default:
      return 312;
  }
}

function typeLimit(point: RegisterPoint): number {
  switch (point.type) {
    case 'u16':
    case 'bits16':
      return 0xfffe;
    case 's16':
      return 0x7fff;
    case 'u32':
    case 'bits32':
      return 0xfffffffe;
    case 's32':
      return 0x7fffffff;
    default:
      return Number.MAX_SAFE_INTEGER;
  }
}

/** What sample (and simulated) devices name on their nameplate; the hardware list is seeded with these models. */
export const SIMULATED_NAMEPLATE = {
  brand: 'Sunward',
  model: (family: string) => `SW-${family}`,
  firmware: '1.4.2',
} as const;

function sampleString(protocol: ProtocolDefinition, point: RegisterPoint): string {
  const text: Record<string, string> = {
    Mn: SIMULATED_NAMEPLATE.brand,
    Md: SIMULATED_NAMEPLATE.model(protocol.family),
    Opt: 'std',
    Vr: SIMULATED_NAMEPLATE.firmware,
    SN: 'SW2024000123',
  };
  const capacity = point.count * 2 - (point.skipBytes ?? 0);
  return (text[point.id] ?? point.id).slice(0, capacity);
}

/** A plausible value for every point of a map, scale factors included, on the map's resolution. */
export function sampleValues(protocol: ProtocolDefinition): Record<string, DecodedValue> {
  const values: Record<string, DecodedValue> = {};
  const dependants = new Map<string, RegisterPoint[]>();
  for (const point of protocol.points) {
    if (point.scaleFactorPoint === undefined) continue;
    const list = dependants.get(point.scaleFactorPoint) ?? [];
    list.push(point);
    dependants.set(point.scaleFactorPoint, list);
  }

  // The smallest exponent at or above the preferred one that lets every dependant fit its type.
  const exponents = new Map<string, number>();
  for (const [id, points] of dependants) {
    // Cell voltages and the power factor setpoint need thousandths; everything else takes the unit's usual resolution.
    let exponent = Math.min(
      ...points.map((point) =>
        point.id.startsWith('CellV') || point.id === 'OutPFSet' ? -3 : (PREFERRED_SCALE_FACTOR[point.unit ?? ''] ?? 0),
      ),
    );
    const tooBig = (point: RegisterPoint) =>
      (Math.abs(nominal(protocol, point)) * (HEADROOM[point.unit ?? ''] ?? 1)) / 10 ** exponent > typeLimit(point);
    while (exponent < 10 && points.some(tooBig)) exponent++;
    exponents.set(id, exponent);
  }

  for (const point of protocol.points) {
    if (point.type === 'string') {
      values[point.id] = sampleString(protocol, point);
      continue;
    }
    const exponent = exponents.get(point.id);
    if (exponent !== undefined) {
      values[point.id] = exponent;
      continue;
    }
    let value = nominal(protocol, point);
    if (point.min !== undefined) value = Math.max(point.min, value);
    if (point.max !== undefined) value = Math.min(point.max, value);
    if (point.type === 'f32') {
      values[point.id] = value;
      continue;
    }
    // Put the value on the resolution the registers can carry, then strip binary noise.
    const exponentOfPoint = point.scaleFactorPoint === undefined ? 0 : (exponents.get(point.scaleFactorPoint) ?? 0);
    const step = (point.scale ?? 1) * 10 ** exponentOfPoint;
    const base = point.base ?? 0;
    const steps = Math.round((value - base) / step);
    const decimals = Math.max(0, -exponentOfPoint) + (String(point.scale ?? 1).split('.')[1]?.length ?? 0);
    values[point.id] = Number.parseFloat((steps * step + base).toFixed(decimals));
  }
  return values;
}
