import { z } from 'zod';

/** The largest value of a PostgreSQL `integer` (int4) column: every record id is one. */
export const ID_MAX = 2_147_483_647;

/**
 * A record id in a JSON body: a positive integer within its column's range. An id beyond it names no
 * record, so it is refused with code 4 naming the field instead of reaching the database.
 */
export const IdSchema = z.number().int().positive().max(ID_MAX);

/** A record id from a path, a query or a form field (text): the same id, read from its digits. */
export const IdParamSchema = z.coerce.number().int().positive().max(ID_MAX);
