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
