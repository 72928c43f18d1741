import {
  type DEVICE_FAMILIES,
  PROTOCOL_NAME_MAX,
  PROTOCOL_NAME_MIN,
  type ProtocolSave,
  type RegisterPointDraft,
  TYPE_REGISTERS,
} from '@sunward/contracts/protocols';
import { z } from 'zod';

/*
 * A SunSpec model file (shared/data/sunspec-models/json, the SunSpec Alliance's JSON form) turned into a
 * protocol draft the editor opens (issue 19): each point at its offset from the model's start, SunSpec
 * types mapped to ours, scale factor points named, enumerations and bit fields kept. Pure.
 */

const SymbolSchema = z.object({ name: z.string(), value: z.number().int(), label: z.string().optional(), desc: z.string().optional() });
const PointSchema = z.object({
  name: z.string(),
  type: z.string(),
  size: z.number().int().min(1),
  label: z.string().optional(),
  desc: z.string().optional(),
  units: z.string().optional(),
  sf: z.union([z.string(), z.number()]).optional(),
  access: z.string().optional(),
  mandatory: z.string().optional(),
  symbols: z.array(SymbolSchema).optional(),
});
type Point = z.infer<typeof PointSchema>;
interface Group {
  name: string;
  label?: string;
  points?: Point[];
  groups?: Group[];
}
const GroupSchema: z.ZodType<Group> = z.lazy(() =>
  z.object({
    name: z.string(),
    label: z.string().optional(),
    points: z.array(PointSchema).optional(),
    groups: z.array(GroupSchema).optional(),
  }),
);
export const SunspecModelSchema = z.object({ id: z.number().int().min(1).max(65535), group: GroupSchema });
export type SunspecModel = z.infer<typeof SunspecModelSchema>;

type Mapped = Pick<RegisterPointDraft, 'type'> & { accumulator?: boolean };
const TYPES: Record<string, Mapped> = {
  uint16: { type: 'u16' },
  int16: { type: 's16' },
  uint32: { type: 'u32' },
  int32: { type: 's32' },
  uint64: { type: 'u64' },
  float32: { type: 'f32' },
  acc16: { type: 'u16', accumulator: true },
  acc32: { type: 'u32', accumulator: true },
  acc64: { type: 'u64', accumulator: true },
  enum16: { type: 'u16' },
  enum32: { type: 'u32' },
  bitfield16: { type: 'bits16' },
  bitfield32: { type: 'bits32' },
  sunssf: { type: 's16' },
  count: { type: 'u16' },
  string: { type: 'string' },
  ipaddr: { type: 'u32' },
  ipv6addr: { type: 'string' },
  eui48: { type: 'string' },
};

const ROLES: Record<string, RegisterPointDraft['role']> = {
  W: 'power',
  WH: 'energy_total',
  St: 'operating_state',
  Evt1: 'event_bits',
  SoC: 'soc',
};

export interface SunspecDraft {
  draft: ProtocolSave;
  /** Points of a type the decoder has no form for (int64, pad), left out; the model still lines up. */
  skipped: string[];
}

/**
 * The draft of model `model.id` placed at `start` (its ID register; the body follows ID and L). Nested
 * groups are laid out once after their parent's points, their point ids prefixed when they clash.
 */
export function draftFromSunspec(model: SunspecModel, options: { start: number; family?: (typeof DEVICE_FAMILIES)[number] }): SunspecDraft {
  const points: RegisterPointDraft[] = [];
  const events: ProtocolSave['content']['events'] = [];
  const skipped: string[] = [];
  const ids = new Set<string>();
  let address = options.start;
  const walk = (group: Group, prefix: string) => {
    for (const p of group.points ?? []) {
      const at = address;
      address += p.size;
      const mapped = TYPES[p.type];
      if (!mapped || p.type === 'pad' || at + p.size > 65536) {
        if (p.type !== 'pad') skipped.push(p.name);
        continue;
      }
      let id = (ids.has(p.name) ? `${prefix}${p.name}` : p.name).replace(/[^A-Za-z0-9_]/g, '_').slice(0, 40);
      if (!/^[A-Za-z]/.test(id)) id = `P${id}`.slice(0, 40);
      if (ids.has(id)) {
        skipped.push(p.name);
        continue;
      }
      ids.add(id);
      const label = (p.label ?? p.name).slice(0, 200);
      const point: RegisterPointDraft = {
        id,
        label: { en: label, zh: '' },
        functionCode: 3,
        address: at,
        count: p.size,
        type: mapped.type,
        operation: p.access === 'RW' ? 'rw' : 'r',
      };
      if (p.units) point.unit = p.units.slice(0, 16);
      if (mapped.accumulator) point.accumulator = true;
      if (typeof p.sf === 'string') point.scaleFactorPoint = p.sf;
      else if (typeof p.sf === 'number') point.scale = 10 ** p.sf;
      if (p.mandatory === 'M' && p.name !== 'ID' && p.name !== 'L') point.required = true;
      const role = ROLES[p.name];
      if (role && prefix === '') point.role = role;
      if (p.symbols && (p.type === 'enum16' || p.type === 'enum32'))
        point.enumeration = Object.fromEntries(p.symbols.map((s) => [String(s.value), { en: (s.label ?? s.name).slice(0, 200), zh: '' }]));
      if (p.symbols && (p.type === 'bitfield16' || p.type === 'bitfield32')) {
        if (!point.role) point.role = 'event_bits';
        const width = p.type === 'bitfield16' ? 16 : 32;
        for (const s of p.symbols)
          if (s.value < width)
            events.push({
              point: id,
              bit: s.value,
              // Codes numbered from the model's number × 100 (model 103: 10300, 10301...), unique in the draft.
              code: model.id * 100 + events.length,
              level: 'warning',
              description: { en: (s.label ?? s.name).slice(0, 200), zh: '' },
              solution: { en: (s.desc ?? s.label ?? s.name).slice(0, 200), zh: '' },
            });
      }
      // A point whose size is not our type's width (a malformed model) is left out rather than misread.
      if (point.type !== 'string' && TYPE_REGISTERS[point.type] !== p.size) {
        ids.delete(id);
        skipped.push(p.name);
        continue;
      }
      points.push(point);
    }
    for (const child of group.groups ?? []) walk(child, `${child.name}_`);
  };
  walk(model.group, '');
  // Scale factors that were left out cannot be named.
  for (const p of points) if (p.scaleFactorPoint && !ids.has(p.scaleFactorPoint)) delete p.scaleFactorPoint;
  const title = (model.group.label ?? model.group.name).slice(0, 200);
  const name = `SUNSPEC-${model.id}`.slice(0, PROTOCOL_NAME_MAX);
  return {
    draft: {
      identifier: `sunspec-model-${model.id}`,
      code: `SUNSPEC-${model.id}`,
      name: name.padEnd(PROTOCOL_NAME_MIN, '0'),
      manufacturer: 'SunSpec',
      family: options.family ?? 'inverter',
      protocolVersion: '1',
      configurationVersion: '1',
      content: {
        title: { en: title, zh: '' },
        source: `SunSpec model ${model.id} (${model.group.name}), SunSpec Alliance information model`,
        points,
        events: events.filter((e) => ids.has(e.point)),
      },
    },
    skipped,
  };
}
