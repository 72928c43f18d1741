/**
 * The parts of a zod 4 schema's definition the route-walking tests read (tenant isolation, read-only roles,
 * API fuzz) to build requests from each route's own schemas.
 */
export interface ZodDef {
  type: string;
  shape?: Record<string, { _zod: { def: ZodDef } }>;
  innerType?: { _zod: { def: ZodDef } };
  out?: { _zod: { def: ZodDef } };
  in?: { _zod: { def: ZodDef } };
  element?: { _zod: { def: ZodDef } };
  options?: { _zod: { def: ZodDef } }[];
  entries?: Record<string, string | number>;
  values?: unknown[];
}

export function defOf(schema: unknown): ZodDef | undefined {
  return (schema as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** Whether a definition only wraps another (optional, nullable, default, …): walkers go on with its innerType. */
export function isWrapper(def: ZodDef): boolean {
  return WRAPPERS.has(def.type);
}

/** The leaves a route walker fills itself: numbers (ids), strings (ids, SNs, accounts, names), and anything else. */
export interface LeafValues {
  number(key: string): unknown;
  string(key: string): unknown;
  /** Types the walker does not know (dates, files, …). */
  other(key: string): unknown;
}

/**
 * A value a route's schema would plausibly accept, built from its zod definition: wrappers unwrapped (the
 * input side of a transform), objects and arrays filled, the first union option, enum entry or literal,
 * `true` for booleans, `{}` for records; numbers, strings and the rest from `leaf` (a walker's own records).
 */
export function sampleOf(def: ZodDef | undefined, key: string, leaf: LeafValues, depth = 0): unknown {
  if (!def || depth > 6) return undefined;
  const inner = (next: unknown, at = key) => sampleOf(defOf(next), at, leaf, depth + 1);
  if (isWrapper(def)) return inner(def.innerType);
  switch (def.type) {
    case 'pipe':
      return defOf(def.out)?.type === 'transform' ? inner(def.in) : inner(def.out);
    case 'object':
      return Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, v]) => [k, inner(v, k)]));
    case 'array':
      return [inner(def.element)];
    case 'union':
      return inner(def.options?.[0]);
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'boolean':
      return true;
    case 'number':
    case 'int':
    case 'bigint':
      return leaf.number(key);
    case 'string':
      return leaf.string(key);
    case 'record':
      return {};
    default:
      return leaf.other(key);
  }
}
