import { type Column, getTableColumns, type InferSelectModel, type SQL, type Table } from 'drizzle-orm';
import { type Database, queryRows } from './client.js';

/**
 * Raw SQL typed from the drizzle schema rather than by hand: the rows of a query that selects a table's
 * columns (`select t.* from …`, with joins, lateral counts or window functions the query builder does not
 * say as well), each under the schema's key and converted as drizzle converts the column (timestamps to
 * Date, bigint/numeric by their mode). The row type is the table's `$inferSelect`; computed columns the
 * query adds are named in `Extra` and passed through as the driver returns them (cast them in SQL, e.g.
 * `count(*)::int as items`).
 */
export async function tableRows<T extends Table, Extra extends Record<string, unknown> = Record<never, never>>(
  db: Database,
  table: T,
  query: SQL,
): Promise<(InferSelectModel<T> & Extra)[]> {
  const columns = Object.entries(getTableColumns(table)) as [string, Column][];
  const names = new Set(columns.map(([, column]) => column.name));
  return (await queryRows<Record<string, unknown>>(db, query)).map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = raw[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    for (const [name, value] of Object.entries(raw)) if (!names.has(name)) row[name] = value;
    return row as InferSelectModel<T> & Extra;
  });
}
