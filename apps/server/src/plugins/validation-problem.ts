import type { Language } from '@sunward/contracts/languages';
import { type MessageKey, translate } from '@sunward/contracts/messages';
import { z } from 'zod';

/**
 * What is wrong with a field of the wrong type (issue 25): `size=abc` is "expected an integer", not "required".
 * Zod reports a missing field and a wrong one alike (invalid_type), so the raw value sent tells them apart, and
 * the route's schema for the field tells an integer from any number (a coerced `abc` fails as NaN first).
 */

/** The raw part of the request that failed (query, body, params or headers) and the route's zod schema of it. */
export interface IssueContext {
  input: unknown;
  schema: unknown;
}

const EXPECTED: Readonly<Record<string, MessageKey>> = {
  int: 'validation.expectedInteger',
  number: 'validation.expectedNumber',
  bigint: 'validation.expectedInteger',
  boolean: 'validation.expectedBoolean',
  string: 'validation.expectedText',
  array: 'validation.expectedList',
  tuple: 'validation.expectedList',
  object: 'validation.expectedObject',
  record: 'validation.expectedObject',
  date: 'validation.expectedDate',
};

const INTEGER_FORMATS = new Set(['safeint', 'int32', 'uint32', 'int64', 'uint64']);

/** The phrase for an invalid_type issue at `path`: required when nothing was sent there, else what was expected. */
export function typeProblem(language: Language, expected: unknown, path: readonly string[], context: IssueContext | undefined): string {
  if (context === undefined || valueAt(context.input, path) === undefined) return translate(language, 'validation.required');
  const integer = expected === 'number' && isIntegerField(schemaAt(context.schema, path));
  const key = EXPECTED[integer ? 'int' : String(expected)];
  return translate(language, key ?? 'validation.invalidType');
}

/** The phrase for a value outside an enumeration: the allowed values, listed. */
export function choiceProblem(language: Language, values: unknown): string | undefined {
  if (!Array.isArray(values) || values.length === 0 || values.length > 12) return undefined;
  return translate(language, 'validation.expectedOneOf', { values: values.map((value) => String(value)).join(', ') });
}

/** `/gateways/0/sn` → ['gateways', '0', 'sn']. */
export function issuePath(instancePath: string): string[] {
  return instancePath.split('/').filter((segment) => segment !== '');
}

function valueAt(input: unknown, path: readonly string[]): unknown {
  let value = input;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** The field's schema inside an object/array schema, through optional, default, nullable and pipe wrappers. */
function schemaAt(schema: unknown, path: readonly string[]): z.ZodType | undefined {
  let current = unwrap(schema);
  for (const segment of path) {
    if (current instanceof z.ZodObject) current = unwrap(current.shape[segment]);
    else if (current instanceof z.ZodArray) current = unwrap(current.element);
    else return undefined;
  }
  return current;
}

function unwrap(schema: unknown): z.ZodType | undefined {
  let current = schema;
  for (let i = 0; i < 10 && current instanceof z.ZodType; i++) {
    const def = current._zod.def as { type: string; innerType?: unknown; in?: z.ZodType; out?: unknown };
    // A pipe is read from its input, or from its output when the input is a preprocessing function.
    const inner = def.innerType ?? (def.type === 'pipe' ? (def.in?._zod.def.type === 'transform' ? def.out : def.in) : undefined);
    if (inner === undefined) return current;
    current = inner;
  }
  return current instanceof z.ZodType ? current : undefined;
}

/** `.int()` (and the other integer formats) is a number_format check on the field. */
function isIntegerField(schema: z.ZodType | undefined): boolean {
  const checks = (schema?._zod.def as { checks?: { _zod: { def: { check?: string; format?: string } } }[] } | undefined)?.checks ?? [];
  return checks.some(({ _zod: { def } }) => def.check === 'number_format' && def.format !== undefined && INTEGER_FORMATS.has(def.format));
}
