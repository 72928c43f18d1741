/** The built-in register maps, one per device family (more than one where devices differ). */
import { installedProtocols } from '../registry.js';
import type { ProtocolDefinition } from '../types.js';
import { SUNSPEC_BATTERY_BMS } from './sunspec-battery.js';
import { SUNSPEC_COMBINER_BOX } from './sunspec-combiner.js';
import { SUNSPEC_HYBRID_HV, SUNSPEC_HYBRID_LV } from './sunspec-hybrids.js';
import { SUNSPEC_INVERTER_1P, SUNSPEC_INVERTER_3P, SUNSPEC_MICRO_INVERTER } from './sunspec-inverters.js';
import { SUNSPEC_METER_3P } from './sunspec-meter.js';
import { SUNSPEC_OPTIMIZER } from './sunspec-optimizer.js';
import { SUNSPEC_WEATHER_STATION } from './sunspec-weather.js';
import { VENDOR_AC_SWITCH } from './vendor-ac-switch.js';
import { VENDOR_HEAT_PUMP } from './vendor-heat-pump.js';

export {
  SUNSPEC_BATTERY_BMS,
  SUNSPEC_COMBINER_BOX,
  SUNSPEC_HYBRID_HV,
  SUNSPEC_HYBRID_LV,
  SUNSPEC_INVERTER_1P,
  SUNSPEC_INVERTER_3P,
  SUNSPEC_METER_3P,
  SUNSPEC_MICRO_INVERTER,
  SUNSPEC_OPTIMIZER,
  SUNSPEC_WEATHER_STATION,
  VENDOR_AC_SWITCH,
  VENDOR_HEAT_PUMP,
};

export const BUILT_IN_PROTOCOLS: readonly ProtocolDefinition[] = [
  SUNSPEC_INVERTER_1P,
  SUNSPEC_INVERTER_3P,
  SUNSPEC_HYBRID_LV,
  SUNSPEC_HYBRID_HV,
  SUNSPEC_MICRO_INVERTER,
  SUNSPEC_METER_3P,
  SUNSPEC_BATTERY_BMS,
  SUNSPEC_OPTIMIZER,
  SUNSPEC_WEATHER_STATION,
  SUNSPEC_COMBINER_BOX,
  VENDOR_HEAT_PUMP,
  VENDOR_AC_SWITCH,
];

const BY_ID = new Map(BUILT_IN_PROTOCOLS.map((protocol) => [protocol.id, protocol]));

/**
 * The map a gateway names in its report, if there is one: the protocol store's current version once the
 * server installed it (registry.ts), the built-in map before.
 */
export function protocolById(id: string): ProtocolDefinition | undefined {
  const installed = installedProtocols();
  return installed ? installed.get(id) : BY_ID.get(id);
}

/** Every map decoding now (the store's, or the built-in ones). */
export function allProtocols(): readonly ProtocolDefinition[] {
  const installed = installedProtocols();
  return installed ? [...installed.values()] : BUILT_IN_PROTOCOLS;
}
