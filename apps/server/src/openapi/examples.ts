/**
 * An example value made from a JSON schema of the API document (issue 25): a route's own `examples` first,
 * else values that satisfy the schema (enums, ranges, formats, lengths and patterns). Redocly's lint checks
 * every example against its schema (no-invalid-media-type-examples). Undefined when no valid value is found.
 */

type JsonSchema = Record<string, unknown>;
type Components = Readonly<Record<string, JsonSchema>>;

const MAX_DEPTH = 8;
const UNSAMPLED = Symbol('unsampled');

const STRING_CANDIDATES = ['text', 'INV0000001', 'GW1000001', 'abc123', 'a', 'A1', '1', '0', '2026-06-01', '12:00'];

/** Values by property name, tried first (when they satisfy the schema). */
const BY_NAME: readonly [RegExp, string][] = [
  [/^(date|day)$/i, '2026-06-01'],
  [/month$/i, '2026-06'],
  [/^year$/i, '2026'],
  [/(timezone|^tz$)/i, 'Europe/Berlin'],
  [/(^sn$|Sn$)/, 'INV0000001'],
  [/(account|username|email)$/i, 'owner@example.com'],
  [/phone$/i, '+4930123456'],
  [/password$/i, 'Example-Password-1'],
  [/token$/i, 'c2VjcmV0LXRva2VuLWV4YW1wbGU'],
  [/currency$/i, 'EUR'],
  [/(language|lan)$/i, 'en'],
  [/name$/i, 'Sunny Meadow'],
  [/address$/i, 'Alexanderplatz 1, Berlin'],
  [/url$/i, 'https://console.example.com/'],
  [/version$/i, '1.2.0'],
];

export function exampleOf(schema: unknown, components: Components, name = ''): unknown {
  const value = sample(schema, components, 0, new Set(), name);
  return value === UNSAMPLED ? undefined : value;
}

function sample(schema: unknown, components: Components, depth: number, refs: Set<string>, name = ''): unknown {
  if (!isObject(schema)) return null;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref.replace('#/components/schemas/', '');
    const target = components[ref];
    // A recursive shape stops at its second visit (an empty list or null where it nests).
    if (!target || refs.has(ref)) return UNSAMPLED;
    return sample(target, components, depth, new Set([...refs, ref]), name);
  }
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null) ?? null;
  if (depth > MAX_DEPTH) return UNSAMPLED;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      for (const branch of branches) {
        if (isObject(branch) && branch.type === 'null') continue;
        const value = sample(branch, components, depth + 1, refs, name);
        if (value !== UNSAMPLED) return value;
      }
      return branches.some((b) => isObject(b) && b.type === 'null') ? null : UNSAMPLED;
    }
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Record<string, unknown> = {};
    for (const part of schema.allOf) {
      const value = sample(part, components, depth + 1, refs);
      if (value === UNSAMPLED) return UNSAMPLED;
      if (isObject(value)) Object.assign(merged, value);
    }
    return merged;
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object':
      return sampleObject(schema, components, depth, refs);
    case 'array': {
      if (Array.isArray(schema.prefixItems)) {
        const items = schema.prefixItems.map((item) => sample(item, components, depth + 1, refs));
        return items.includes(UNSAMPLED) ? UNSAMPLED : items;
      }
      const item = sample(schema.items, components, depth + 1, refs, name);
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      if (item === UNSAMPLED) return min === 0 ? [] : UNSAMPLED;
      return Array.from({ length: Math.max(1, min) }, () => item);
    }
    case 'string':
      return sampleString(schema, name);
    case 'integer':
    case 'number':
      return sampleNumber(schema, type === 'integer');
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return schema.properties ? sampleObject(schema, components, depth, refs) : null;
  }
}

function sampleObject(schema: JsonSchema, components: Components, depth: number, refs: Set<string>): unknown {
  const out: Record<string, unknown> = {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    const value = sample(property, components, depth + 1, refs, name);
    if (value === UNSAMPLED) {
      if (required.has(name)) return UNSAMPLED;
      continue;
    }
    out[name] = value;
  }
  return out;
}

function sampleString(schema: JsonSchema, name: string): unknown {
  switch (schema.format) {
    case 'date-time':
      return '2026-06-01T08:00:00.000Z';
    case 'date':
      return '2026-06-01';
    case 'time':
      return '08:00:00';
    case 'email':
      return 'owner@example.com';
    case 'uri':
    case 'url':
      return 'https://console.example.com/';
    case 'uuid':
      return '3f0c2a9e-6b1d-4e8f-9a7c-1d2e3f4a5b6c';
    case 'ipv4':
      return '192.0.2.10';
    default:
      break;
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const pattern = typeof schema.pattern === 'string' ? safeRegExp(schema.pattern) : undefined;
  if (schema.pattern !== undefined && pattern === undefined) return UNSAMPLED;
  const named = BY_NAME.filter(([test]) => test.test(name)).map(([, value]) => value);
  for (const candidate of [...named, ...STRING_CANDIDATES]) {
    const padded = candidate.length < min ? candidate.padEnd(min, '0') : candidate;
    if (padded.length > max) continue;
    if (pattern && !pattern.test(padded)) continue;
    return padded;
  }
  return UNSAMPLED;
}

function sampleNumber(schema: JsonSchema, integer: boolean): unknown {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + (integer ? 1 : 0.5)
        : undefined;
  const max =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - (integer ? 1 : 0.5)
        : undefined;
  // 1 where the range allows it (not the smallest safe integer zod writes as the bound of any integer).
  let value = Math.max(min ?? 1, Math.min(1, max ?? 1));
  if (integer) value = Math.ceil(value);
  if (max !== undefined && value > max) return UNSAMPLED;
  return value;
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
