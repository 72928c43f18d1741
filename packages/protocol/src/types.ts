/**
 * Register maps as data (spec 02 §3 Protocol): what each Modbus register of a device means, and which
 * fault and alarm bits open which events. The built-in maps follow the SunSpec information models.
 */

export type DataType = 'u16' | 's16' | 'u32' | 's32' | 'u64' | 'f32' | 'string' | 'bits16' | 'bits32';

export type DeviceFamily =
  | 'inverter'
  | 'hybrid_inverter'
  | 'micro_inverter'
  | 'meter'
  | 'battery'
  | 'optimizer'
  | 'weather_station'
  | 'combiner_box'
  | 'heat_pump'
  | 'ac_switch';

export interface LocalisedText {
  en: string;
  zh: string;
}

/** What the pipeline does with a point beyond storing it. */
export type PointRole =
  | 'power' // W, the device's main active power (generation for PV, +discharge/-charge for batteries)
  | 'energy_total' // Wh, cumulative counter of generation (or import for meters), only grows
  | 'energy_export_total' // Wh, cumulative export counter (meters)
  | 'energy_charge_total' // Wh, battery charged
  | 'energy_discharge_total' // Wh, battery discharged
  | 'soc' // %, battery state of charge
  | 'operating_state' // device state enumeration
  | 'event_bits'; // bit field whose bits open events (see EventDefinition)

export interface RegisterPoint {
  /** Stable id within the map (SunSpec point name where one exists, e.g. "W", "WH", "PhVphA"). */
  id: string;
  label: LocalisedText;
  /** Modbus function code used to read it: 3 holding or 4 input registers. */
  functionCode: 3 | 4;
  /** Start address (PDU address, 0-based, as sent on the wire). */
  address: number;
  /** Number of 16-bit registers. */
  count: number;
  type: DataType;
  unit?: string;
  /** Read, write or read-write (spec 02 §3 operation type); write-only registers are never decoded. */
  operation: 'r' | 'w' | 'rw';
  /** Swap the two bytes within each register. */
  byteSwap?: boolean;
  /** Swap register order for 32/64-bit values (low word first). */
  wordSwap?: boolean;
  /** Multiplier applied to the raw integer (e.g. 0.1); applied before `base`. */
  scale?: number;
  /** Id of a point holding a SunSpec scale factor (sunssf, power of ten); applied with `scale`. */
  scaleFactorPoint?: string;
  /** Offset added after scaling. */
  base?: number;
  /** Bytes to skip at the start of the field (strings padded at the front). */
  skipBytes?: number;
  /**
   * SunSpec accumulator (acc16/acc32/acc64, e.g. WH): an unsigned counter that reads 0 when the device
   * does not accumulate it, so 0 decodes as absent ("not implemented") rather than as a value.
   */
  accumulator?: boolean;
  /** A report without this point is incomplete. */
  required?: boolean;
  role?: PointRole;
  /** Device page section (contracts POINT_SECTIONS); without it the console places the point by its id. */
  section?: string;
  /** Whether charts offer the point; without it, numbers that are neither bit fields nor enumerations. */
  chart?: boolean;
  /** Whether it makes the month/year/total energy bars; without it, Wh and kWh points. */
  counter?: boolean;
  /** For writable points: allowed range of the engineering value. */
  min?: number;
  max?: number;
  /** Enumerated values: raw value -> label. */
  enumeration?: Record<number, LocalisedText>;
  /** Bit fields that are states rather than events (relays): bit -> what a set bit means. */
  bitNames?: Record<number, LocalisedText>;
}

export type EventLevel = 'fault' | 'warning' | 'protect';

export interface EventDefinition {
  /** Point with role event_bits. */
  point: string;
  bit: number;
  /** Event code shown to users (digits only). */
  code: number;
  level: EventLevel;
  description: LocalisedText;
  solution: LocalisedText;
}

/**
 * A limit as an open/closed pair. `trip: 'above'` (an over-limit): the device opens when the measured value
 * passes `open` upwards and closes again once it has fallen below `closed`, so open must exceed closed.
 * `trip: 'below'` (an under-limit such as under-voltage): it opens below `open` and closes again above
 * `closed`, so closed must exceed open. Both values are positive integers in the point's unit.
 */
export interface SettingPair {
  open: string;
  closed: string;
  trip: 'above' | 'below';
}

export interface ProtocolDefinition {
  /** Identifier a gateway sends with each device report, e.g. "sunspec-inverter-3p". */
  id: string;
  version: string;
  name: LocalisedText;
  family: DeviceFamily;
  manufacturer: string;
  /** Where the map comes from (SunSpec model numbers, with attribution). */
  source: string;
  points: RegisterPoint[];
  events: EventDefinition[];
  /**
   * Vendor settings families the console's settings forms address (spec 01 §7: mt/setting, dy/grid,
   * setting/switch...): family key -> the writable points that make its form. A model without a family
   * answers 601 to it.
   */
  settingsFamilies?: Record<string, readonly string[]>;
  /**
   * Limits written as an open (trip) and a closed (reclose) value (spec 02 §5, issue 22), both writable
   * points of the same settings family. The server refuses a write that leaves a pair in the wrong order
   * (4430) or a paired value that is not a positive integer, and the settings form checks the same first.
   */
  settingPairs?: readonly SettingPair[];
  /**
   * Numeric point ids in the order a reading stores them, when the map has been edited: append-only across
   * versions (a point keeps its position, a removed one leaves its slot empty), so readings stored by an
   * older version read the same. Without it, the map's order (numericPointIds).
   */
  storageOrder?: readonly string[];
}

/** A contiguous block of registers as read from the device. */
export interface RegisterBlock {
  functionCode: number;
  address: number;
  registers: readonly number[];
}

export type DecodedValue = number | string;

export interface DecodeResult {
  values: Record<string, DecodedValue>;
  /** Readable reasons for points that could not be decoded (missing registers, bad type…). */
  problems: string[];
}
