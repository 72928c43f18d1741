import { Column, type GetColumnData, getTableColumns, type InferSelectModel, is, type SQL, type Table } from 'drizzle-orm';
import type { Database } from './client.js';

/**
 * Raw SQL with row types derived from the drizzle schema instead of written by hand.
 *
 * A raw query (joins, lateral counts, window functions, `for update skip locked`, upserts with `returning`: what
 * the query builder says less clearly) declares its answer once, as a map from each output name (the SQL alias)
 * to where the value comes from:
 * - a schema column (`plants.name`): typed as drizzle types it (`$inferSelect`, null where the column may be)
 *   and converted as drizzle converts it (timestamps to Date, int8/numeric by their mode, JSON parsed);
 * - a computed value (`computed.number`, `computed.text`, …) for what no column holds (counts, sums, expressions);
 * - `nullable(...)` of either where an outer join or a scalar subquery may yield no value.
 *
 * This module is the one place raw rows are read (`rawRows`): it checks the driver's answer rather than casting
 * it, and every typed row is built from the declared map, so a row's type always says what the code converted.
 */

/** How a computed (non-column) value of a raw row is read. */
export interface Computed<T> {
  readonly read: (value: unknown) => T;
}

/** One output column of a raw query: a schema column or a computed value. */
export type Source = Column | Computed<unknown>;

/** The TypeScript type a source yields. */
export type ValueOf<S> = S extends Column ? GetColumnData<S> : S extends Computed<infer T> ? T : never;

/** The row type of a raw query whose answer is described by `columns`. */
export type RowOf<C extends Record<string, Source>> = { [K in keyof C]: ValueOf<C[K]> };

/** A schema table's row, by its drizzle table (the same as `typeof table.$inferSelect`). */
export type TableRow<T extends Table> = InferSelectModel<T>;

const make = <T>(read: (value: unknown) => T): Computed<T> => ({ read });

/** A computed value declared not null: SQL null here means the query needs `nullable(...)`, so it is refused. */
const notNull = <T>(read: (value: unknown) => T): Computed<T> =>
  make((v) => {
    if (v === null || v === undefined) throw new TypeError('a raw query answered null where its columns say not null');
    return read(v);
  });

function toNumber(value: unknown): number {
  // count(*), sum(...) and int8 arrive as strings on node-postgres and as numbers on PGlite.
  const n = typeof value === 'number' ? value : Number(value);
  if (Number.isNaN(n)) throw new TypeError(`not a number in a raw row: ${String(value)}`);
  return n;
}

function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

/** Computed values (what no schema column holds). Each reads the value the same way on both drivers. */
export const computed = {
  /** Counts, sums and other numbers (int8 and numeric included: read as a JavaScript number). */
  number: notNull(toNumber),
  /** Text, and anything cast `::text` in SQL. */
  text: notNull((v) => String(v)),
  boolean: notNull((v) => v === true || v === 't' || v === 'true'),
  /** A timestamp (timestamptz arrives as text in raw queries on both drivers). */
  date: notNull(toDate),
  /** Text that is one of a closed list (a status, a kind): any other value is refused rather than passed on. */
  oneOf: <const T extends string>(values: readonly T[]) =>
    notNull((v): T => {
      const text = String(v);
      if (!(values as readonly string[]).includes(text))
        throw new TypeError(`a raw query answered "${text}", not one of ${values.join(', ')}`);
      return text as T;
    }),
  /** An array of numbers (float8[]): SQL null items read as NaN, as the stored point arrays mean "no value". */
  numbers: notNull((v): number[] => {
    if (!Array.isArray(v)) throw new TypeError('a raw query answered no array where its columns say numbers');
    return v.map((item: unknown) => (item === null ? Number.NaN : Number(item)));
  }),
  /** A JSON value (jsonb/json, parsed when the driver did not). */
  json: <T>() => notNull((v): T => (typeof v === 'string' ? JSON.parse(v) : v) as T),
} as const;

/** A source that may yield SQL null (an outer join, a scalar subquery, an aggregate over no rows). */
export function nullable<S extends Source>(source: S): Computed<ValueOf<S> | null> {
  return make((v) => (v === null || v === undefined ? null : (read(source, v) as ValueOf<S>)));
}

function read(source: Source, raw: unknown): unknown {
  if (is(source, Column)) return raw === null || raw === undefined ? null : source.mapFromDriverValue(raw);
  return source.read(raw);
}

/**
 * The rows of a raw query, as the driver answers them (node-postgres and PGlite both answer `{ rows }`; the
 * common Database type cannot say so, so the answer is checked here rather than cast).
 */
export async function rawRows(db: Database, query: SQL): Promise<Record<string, unknown>[]> {
  const result: unknown = await db.execute(query);
  if (typeof result !== 'object' || result === null || !('rows' in result) || !Array.isArray(result.rows))
    throw new TypeError('the database answered a query without rows');
  return result.rows.filter((row): row is Record<string, unknown> => typeof row === 'object' && row !== null);
}

/** Builds typed rows from raw ones by the declared map (see the module comment). */
export function rowsOf<C extends Record<string, Source>>(columns: C, raw: Record<string, unknown>[]): RowOf<C>[] {
  const entries = Object.entries(columns);
  return raw.map((r) => {
    const row: Record<string, unknown> = {};
    for (const [name, source] of entries) {
      if (!(name in r)) throw new TypeError(`a raw query declared column "${name}" but did not answer it`);
      row[name] = read(source, r[name]);
    }
    return row as RowOf<C>;
  });
}

/**
 * A raw query's rows typed and converted from `columns` (output name → schema column or computed value):
 * `sqlRows(db, { id: plants.id, name: plants.name, devices: computed.number }, sql\`select p.id, p.name, count(d.*) as devices …\`)`.
 */
export async function sqlRows<C extends Record<string, Source>>(db: Database, columns: C, query: SQL): Promise<RowOf<C>[]> {
  return rowsOf(columns, await rawRows(db, query));
}

/** The first row of a raw query (typed as `sqlRows`), or undefined when it answered none. */
export async function sqlRow<C extends Record<string, Source>>(db: Database, columns: C, query: SQL): Promise<RowOf<C> | undefined> {
  return (await sqlRows(db, columns, query))[0];
}

/**
 * The rows of a query that selects a table's columns (`select t.* from …`), each under the schema's key and
 * converted as drizzle converts the column; `extra` declares what the query adds (as in `sqlRows`).
 */
export async function tableRows<T extends Table, E extends Record<string, Source> = Record<never, never>>(
  db: Database,
  table: T,
  query: SQL,
  extra?: E,
): Promise<(InferSelectModel<T> & RowOf<E>)[]> {
  const columns = Object.entries(getTableColumns(table)) as [string, Column][];
  const extras = Object.entries(extra ?? {});
  return (await rawRows(db, query)).map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) row[key] = read(column, raw[column.name]);
    for (const [name, source] of extras) row[name] = read(source, raw[name]);
    return row as InferSelectModel<T> & RowOf<E>;
  });
}
