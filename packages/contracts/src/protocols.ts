import { z } from 'zod';

/*
 * Protocols as data (spec 02 §3 Protocol, issue 19): a protocol's registers, events and settings groups as
 * they travel between the console, the server and JSON files. The same checks run in the register editor
 * as the user types and on the server before anything is stored (`protocolDraftProblems`).
 */

export const DATA_TYPES = ['u16', 's16', 'u32', 's32', 'u64', 'f32', 'string', 'bits16', 'bits32'] as const;
export type ProtocolDataType = (typeof DATA_TYPES)[number];

/** Registers a fixed-width type takes; strings take what `count` says. */
export const TYPE_REGISTERS: Record<Exclude<ProtocolDataType, 'string'>, number> = {
  u16: 1,
  s16: 1,
  u32: 2,
  s32: 2,
  u64: 4,
  f32: 2,
  bits16: 1,
  bits32: 2,
};

export const DEVICE_FAMILIES = [
  'inverter',
  'hybrid_inverter',
  'micro_inverter',
  'meter',
  'battery',
  'optimizer',
  'weather_station',
  'combiner_box',
  'heat_pump',
  'ac_switch',
] as const;

export const POINT_ROLES = [
  'power',
  'energy_total',
  'energy_export_total',
  'energy_charge_total',
  'energy_discharge_total',
  'soc',
  'operating_state',
  'event_bits',
] as const;

/** The device page's sections a point can be shown in (contracts/devices SECTION_KEYS). */
export const POINT_SECTIONS = [
  'output',
  'input',
  'strings',
  'grid',
  'meter',
  'load',
  'eps',
  'battery',
  'cells',
  'environment',
  'operation',
  'status',
  'settings',
  'other',
] as const;

/** Operation type (spec 02 §3): read, write or read-write; write-only registers are never decoded. */
export const OPERATIONS = ['r', 'w', 'rw'] as const;
export const EVENT_LEVELS = ['fault', 'warning', 'protect'] as const;

export const PROTOCOL_NAME_MIN = 6;
export const PROTOCOL_NAME_MAX = 12;
/** An import file larger than this is refused before it is read (issue 19). */
export const PROTOCOL_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const PROTOCOL_MAX_POINTS = 2000;
const ADDRESS_SPACE = 65536;

const Localised = z.object({ en: z.string().trim().min(1).max(200), zh: z.string().trim().max(200) });

export const RegisterPointSchema = z.object({
  id: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/),
  label: Localised,
  functionCode: z.union([z.literal(3), z.literal(4)]),
  address: z
    .number()
    .int()
    .min(0)
    .max(ADDRESS_SPACE - 1),
  count: z.number().int().min(1).max(125),
  type: z.enum(DATA_TYPES),
  unit: z.string().max(16).optional(),
  operation: z.enum(OPERATIONS),
  byteSwap: z.boolean().optional(),
  wordSwap: z.boolean().optional(),
  scale: z.number().finite().optional(),
  scaleFactorPoint: z.string().max(40).optional(),
  base: z.number().finite().optional(),
  skipBytes: z.number().int().min(0).max(250).optional(),
  accumulator: z.boolean().optional(),
  required: z.boolean().optional(),
  role: z.enum(POINT_ROLES).optional(),
  /** Device page section; without it the console places the point by its id (device-catalogue rules). */
  section: z.enum(POINT_SECTIONS).optional(),
  /** Whether charts offer it; without it, numbers that are neither bit fields nor enumerations. */
  chart: z.boolean().optional(),
  /** Whether it is an energy counter of the month/year/total bars; without it, Wh and kWh points. */
  counter: z.boolean().optional(),
  min: z.number().finite().optional(),
  max: z.number().finite().optional(),
  enumeration: z.record(z.string(), Localised).optional(),
  bitNames: z.record(z.string(), Localised).optional(),
});
export type RegisterPointDraft = z.infer<typeof RegisterPointSchema>;

export const EventDefinitionSchema = z.object({
  point: z.string().max(40),
  bit: z.number().int().min(0).max(31),
  code: z.number().int().min(0).max(999_999_999),
  level: z.enum(EVENT_LEVELS),
  description: Localised,
  solution: Localised,
});

/** What a protocol version holds: its registers, its event table and its settings groups. */
export const ProtocolContentSchema = z.object({
  title: Localised,
  source: z.string().max(500),
  points: z.array(RegisterPointSchema).min(1).max(PROTOCOL_MAX_POINTS),
  events: z.array(EventDefinitionSchema).max(5000),
  settingsFamilies: z.record(z.string().max(40), z.array(z.string().max(40))).optional(),
  /**
   * Limits written as an open (trip) and a closed (reclose) value (spec 02 §5): `above`, open must exceed
   * closed; `below` (an under-limit), closed must exceed open. Both writable; the console refuses a write
   * that breaks a pair (4430) and shows each pair side by side in its settings form.
   */
  settingPairs: z
    .array(z.object({ open: z.string().max(40), closed: z.string().max(40), trip: z.enum(['above', 'below']) }))
    .max(100)
    .optional(),
});
export type ProtocolContent = z.infer<typeof ProtocolContentSchema>;

export const ProtocolFieldsSchema = z.object({
  /** What gateways send with each device report; cannot change once created. */
  identifier: z.string().regex(/^[a-z0-9][a-z0-9-]{2,39}$/),
  code: z.string().regex(/^[A-Za-z0-9_-]{2,32}$/),
  name: z.string().trim().min(PROTOCOL_NAME_MIN).max(PROTOCOL_NAME_MAX),
  manufacturer: z.string().trim().min(1).max(64),
  family: z.enum(DEVICE_FAMILIES),
  protocolVersion: z.string().trim().min(1).max(20),
  configurationVersion: z.string().trim().min(1).max(20),
});

/** Create (POST /api/v1/protocols) and a new version (PUT /api/v1/protocols/:id, identifier ignored). */
export const ProtocolSaveSchema = ProtocolFieldsSchema.extend({
  content: ProtocolContentSchema,
  note: z.string().max(500).optional(),
  /** The version the editor started from: a save over a newer version is refused (4205). */
  baseVersion: z.number().int().min(1).optional(),
});
export type ProtocolSave = z.infer<typeof ProtocolSaveSchema>;

/** One protocol in a JSON file (export and import): the fields and the current version's content. */
export const ProtocolFileSchema = z.object({
  format: z.literal('sunward-protocol'),
  formatVersion: z.literal(1),
  protocol: ProtocolFieldsSchema.extend({ content: ProtocolContentSchema }),
});
export type ProtocolFile = z.infer<typeof ProtocolFileSchema>;

export const ProtocolRowSchema = z.object({
  id: z.number().int(),
  identifier: z.string(),
  code: z.string(),
  name: z.string(),
  manufacturer: z.string(),
  family: z.enum(DEVICE_FAMILIES),
  protocolVersion: z.string(),
  configurationVersion: z.string(),
  enabled: z.boolean(),
  builtIn: z.boolean(),
  currentVersion: z.number().int(),
  registers: z.number().int(),
  devices: z.number().int(),
  creator: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProtocolRow = z.infer<typeof ProtocolRowSchema>;

export const ProtocolPageSchema = z.object({ infos: z.array(ProtocolRowSchema), total: z.number().int() });
export type ProtocolPage = z.infer<typeof ProtocolPageSchema>;

export const ProtocolListQuerySchema = z.object({
  keyword: z.string().trim().max(64).optional(),
  family: z.enum(DEVICE_FAMILIES).optional(),
  enabled: z.enum(['true', 'false']).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export type ProtocolListQuery = z.infer<typeof ProtocolListQuerySchema>;

export const ProtocolDetailSchema = ProtocolRowSchema.extend({ content: ProtocolContentSchema });
export type ProtocolDetail = z.infer<typeof ProtocolDetailSchema>;

export const ProtocolVersionRowSchema = z.object({
  version: z.number().int(),
  protocolVersion: z.string(),
  configurationVersion: z.string(),
  note: z.string().nullable(),
  creator: z.string().nullable(),
  createdAt: z.string(),
  registers: z.number().int(),
});
export type ProtocolVersionRow = z.infer<typeof ProtocolVersionRowSchema>;

export const ProtocolVersionSchema = ProtocolVersionRowSchema.extend({ content: ProtocolContentSchema });
export type ProtocolVersion = z.infer<typeof ProtocolVersionSchema>;

export const ProtocolEnableSchema = z.object({ enabled: z.boolean() });

/** A SunSpec model file (shared/data/sunspec-models) turned into a draft: group points become registers. */
export const SunspecImportSchema = z.object({ model: z.unknown() });

/** A problem with a draft, named by its field path (points.3.address) and a message key with parameters. */
export interface DraftProblem {
  field: string;
  key: DraftProblemKey;
  params?: Record<string, string | number>;
}
export type DraftProblemKey =
  | 'overlap'
  | 'typeWidth'
  | 'duplicateId'
  | 'unknownPoint'
  | 'notBitField'
  | 'bitOutOfRange'
  | 'duplicateEventCode'
  | 'notWritable'
  | 'minAboveMax';

const isFixed = (type: ProtocolDataType): type is Exclude<ProtocolDataType, 'string'> => type !== 'string';

/**
 * The rules zod cannot say alone (spec 02 §5, issue 19): register addresses unique and ranges that do not
 * overlap within a function code, widths that fit the data type, point ids unique, events on bit fields
 * with bits inside them, settings groups of writable points. The first problem of each field only.
 */
export function protocolDraftProblems(
  content: Pick<ProtocolContent, 'points' | 'events' | 'settingsFamilies' | 'settingPairs'>,
): DraftProblem[] {
  const problems: DraftProblem[] = [];
  const seen = new Set<string>();
  const add = (p: DraftProblem) => {
    if (seen.has(p.field)) return;
    seen.add(p.field);
    problems.push(p);
  };
  const byId = new Map<string, { index: number; point: RegisterPointDraft }>();
  content.points.forEach((point, index) => {
    if (byId.has(point.id)) add({ field: `points.${index}.id`, key: 'duplicateId', params: { id: point.id } });
    else byId.set(point.id, { index, point });
    if (isFixed(point.type) && point.count !== TYPE_REGISTERS[point.type])
      add({ field: `points.${index}.count`, key: 'typeWidth', params: { type: point.type, count: TYPE_REGISTERS[point.type] } });
    if (point.min !== undefined && point.max !== undefined && point.min > point.max)
      add({ field: `points.${index}.min`, key: 'minAboveMax' });
    if (point.scaleFactorPoint !== undefined && !content.points.some((p) => p.id === point.scaleFactorPoint))
      add({ field: `points.${index}.scaleFactorPoint`, key: 'unknownPoint', params: { id: point.scaleFactorPoint } });
  });
  // Overlaps: sorted by function code and start, each range against the furthest end seen so far.
  const ranges = content.points
    .map((point, index) => ({ index, point }))
    .sort((a, b) => a.point.functionCode - b.point.functionCode || a.point.address - b.point.address || a.index - b.index);
  let previous: { index: number; point: RegisterPointDraft } | undefined;
  for (const current of ranges) {
    if (
      previous &&
      previous.point.functionCode === current.point.functionCode &&
      current.point.address < previous.point.address + previous.point.count
    ) {
      const later = current.index > previous.index ? current : previous;
      const other = later === current ? previous : current;
      add({
        field: `points.${later.index}.address`,
        key: 'overlap',
        params: { id: later.point.id, other: other.point.id, address: later.point.address },
      });
    }
    if (
      !previous ||
      current.point.functionCode !== previous.point.functionCode ||
      current.point.address + current.point.count > previous.point.address + previous.point.count
    )
      previous = current;
  }
  const codes = new Set<number>();
  content.events.forEach((event, index) => {
    const point = byId.get(event.point)?.point;
    if (!point) add({ field: `events.${index}.point`, key: 'unknownPoint', params: { id: event.point } });
    else if (point.type !== 'bits16' && point.type !== 'bits32')
      add({ field: `events.${index}.point`, key: 'notBitField', params: { id: event.point } });
    else if (event.bit >= (point.type === 'bits16' ? 16 : 32))
      add({ field: `events.${index}.bit`, key: 'bitOutOfRange', params: { bit: event.bit } });
    if (codes.has(event.code)) add({ field: `events.${index}.code`, key: 'duplicateEventCode', params: { code: event.code } });
    codes.add(event.code);
  });
  for (const [family, ids] of Object.entries(content.settingsFamilies ?? {}))
    ids.forEach((id, index) => {
      const point = byId.get(id)?.point;
      if (!point) add({ field: `settingsFamilies.${family}.${index}`, key: 'unknownPoint', params: { id } });
      else if (point.operation === 'r') add({ field: `settingsFamilies.${family}.${index}`, key: 'notWritable', params: { id } });
    });
  // A limit pair names two writable points.
  (content.settingPairs ?? []).forEach((pair, index) => {
    for (const half of ['open', 'closed'] as const) {
      const id = pair[half];
      const point = byId.get(id)?.point;
      if (!point) add({ field: `settingPairs.${index}.${half}`, key: 'unknownPoint', params: { id } });
      else if (point.operation === 'r') add({ field: `settingPairs.${index}.${half}`, key: 'notWritable', params: { id } });
    }
  });
  return problems;
}

/** One line of a version diff: a register added, removed, or changed in the named fields. */
export interface RegisterDiff {
  id: string;
  change: 'added' | 'removed' | 'changed';
  fields: string[];
}

const DIFF_FIELDS = [
  'label',
  'functionCode',
  'address',
  'count',
  'type',
  'unit',
  'operation',
  'byteSwap',
  'wordSwap',
  'scale',
  'scaleFactorPoint',
  'base',
  'skipBytes',
  'required',
  'role',
  'section',
  'chart',
  'counter',
  'min',
  'max',
  'enumeration',
  'bitNames',
] as const;

/** What changed between two versions' registers, by point id (the history view and the switch preview). */
export function diffRegisters(before: readonly RegisterPointDraft[], after: readonly RegisterPointDraft[]): RegisterDiff[] {
  const old = new Map(before.map((p) => [p.id, p]));
  const now = new Map(after.map((p) => [p.id, p]));
  const diff: RegisterDiff[] = [];
  for (const point of after) {
    const was = old.get(point.id);
    if (!was) {
      diff.push({ id: point.id, change: 'added', fields: [] });
      continue;
    }
    const fields = DIFF_FIELDS.filter((f) => JSON.stringify(was[f] ?? null) !== JSON.stringify(point[f] ?? null));
    if (fields.length > 0) diff.push({ id: point.id, change: 'changed', fields });
  }
  for (const point of before) if (!now.has(point.id)) diff.push({ id: point.id, change: 'removed', fields: [] });
  return diff;
}

// ---- Scripts (spec 02 §3 Script: protocol identifier, language type, function definition; issue 19) ----

export const SCRIPT_LANGUAGES = ['javascript'] as const;
export const SCRIPT_SOURCE_MAX = 64 * 1024;
/** Wall time a script may take per reading (the sandbox stops it beyond). */
export const SCRIPT_TIME_LIMIT_MS = 50;

/** One script per protocol and configuration version (spec 02 §5: a second one is refused, 4207). */
export const ProtocolScriptSchema = z.object({
  id: z.number().int(),
  protocolId: z.number().int(),
  configurationVersion: z.string(),
  language: z.enum(SCRIPT_LANGUAGES),
  source: z.string(),
  /** Whether the protocol's current version has this configuration version (so the decoder runs it). */
  active: z.boolean(),
  creator: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProtocolScript = z.infer<typeof ProtocolScriptSchema>;

/** Adding (POST) names the configuration version; editing (PUT) changes only the source. */
export const ProtocolScriptSaveSchema = z.object({
  configurationVersion: z.string().trim().min(1).max(20),
  language: z.enum(SCRIPT_LANGUAGES).default('javascript'),
  source: z.string().min(1).max(SCRIPT_SOURCE_MAX),
});
export type ProtocolScriptSave = z.infer<typeof ProtocolScriptSaveSchema>;

/** A register block as a gateway reports it: function code, start address, registers as hex (4 digits each). */
export const ScriptBlockSchema = z.object({
  fc: z.union([z.literal(3), z.literal(4)]),
  addr: z.number().int().min(0).max(65535),
  hex: z
    .string()
    .trim()
    .max(2000)
    .regex(/^([0-9a-fA-F]{4}\s*)+$/, 'whole registers of 4 hex digits'),
});

/** The test console: a source (saved or not) run on registers the administrator types; nothing is stored. */
export const ProtocolScriptTestSchema = z.object({
  source: z.string().min(1).max(SCRIPT_SOURCE_MAX),
  blocks: z.array(ScriptBlockSchema).min(1).max(20),
});
export type ProtocolScriptTest = z.infer<typeof ProtocolScriptTestSchema>;

export const ProtocolScriptTestResultSchema = z.object({
  /** Null when the script ran; else why not (syntax error with its line, overrun, out of memory, unknown point). */
  error: z.string().nullable(),
  elapsedMs: z.number(),
  /** Every numeric point decoded or set: as the registers decode, and after the script. */
  points: z.array(z.object({ id: z.string(), unit: z.string().nullable(), decoded: z.number().nullable(), output: z.number().nullable() })),
});
export type ProtocolScriptTestResult = z.infer<typeof ProtocolScriptTestResultSchema>;
