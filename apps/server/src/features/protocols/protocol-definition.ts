import { PROTOCOL_NAME_MAX, PROTOCOL_NAME_MIN, type ProtocolContent, ProtocolContentSchema } from '@sunward/contracts/protocols';
import { numericPointIds } from '@sunward/protocol/codec';
import type { DeviceFamily, ProtocolDefinition } from '@sunward/protocol/types';
import type { StoredDefinition } from './protocols.repository.js';

/*
 * Between the three forms of a protocol: the shipped TypeScript maps (the seed), the stored rows (the
 * source of truth once seeded) and the decoder's ProtocolDefinition. Pure.
 */

/** A stored version as the decoder reads it. */
export function toDefinition(row: {
  identifier: string;
  family: string;
  manufacturer: string;
  protocolVersion: string;
  definition: StoredDefinition;
}): ProtocolDefinition {
  const d = row.definition;
  return {
    id: row.identifier,
    version: row.protocolVersion,
    name: d.title,
    family: row.family as DeviceFamily,
    manufacturer: row.manufacturer,
    source: d.source,
    points: d.points,
    events: d.events,
    settingsFamilies: d.settingsFamilies,
    settingPairs: d.settingPairs,
    storageOrder: d.storageOrder,
  };
}

/** A shipped map's content, checked by the same schema as anything a user stores. */
export function contentOfMap(map: ProtocolDefinition): ProtocolContent {
  return ProtocolContentSchema.parse(
    JSON.parse(
      JSON.stringify({
        title: map.name,
        source: map.source,
        points: map.points,
        events: map.events,
        settingsFamilies: map.settingsFamilies,
        settingPairs: map.settingPairs,
      }),
    ),
  );
}

/** The storage order of a map as it would be stored fresh (numeric points, scale factors left out). */
function freshOrder(content: ProtocolContent): string[] {
  return numericPointIds({
    id: '',
    version: '',
    name: content.title,
    family: 'inverter',
    manufacturer: '',
    source: '',
    points: content.points,
    events: [],
  });
}

/**
 * The storage order of a new version: the previous order kept whole (a removed point leaves its slot),
 * points new to the protocol appended. Stored readings therefore read the same under every version.
 */
export function storageOrderAfter(previous: readonly string[] | undefined, content: ProtocolContent): string[] {
  const order = [...(previous ?? [])];
  const known = new Set(order);
  for (const id of freshOrder(content)) if (!known.has(id)) order.push(id);
  return order;
}

/**
 * The protocol name (6-12 characters, spec 02 §5) of a shipped map, derived from its identifier:
 * "sunspec-inverter-3p" → "INVERTER-3P". Only seeds need it; users name their protocols.
 */
export function seedName(identifier: string): string {
  const name = identifier
    .replace(/^(sunspec|vendor)-/, '')
    .toUpperCase()
    .slice(0, PROTOCOL_NAME_MAX)
    .replace(/-$/, '');
  return name.length >= PROTOCOL_NAME_MIN ? name : name.padEnd(PROTOCOL_NAME_MIN, '-');
}

/** JSON with every object's keys sorted: stored (jsonb) and shipped content compare equal when they are. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * Whether a stored content is the same protocol as `b` (the storage order and key order aside); a stored
 * content the schema no longer reads is not.
 */
export function sameContent(stored: unknown, b: ProtocolContent): boolean {
  const a = ProtocolContentSchema.safeParse(stored);
  return a.success && canonical(a.data) === canonical(ProtocolContentSchema.parse(b));
}
