/** PostgreSQL error codes the product reacts to (SQLSTATE), wherever the driver wrapped them. */

/** True when the error, or an error it wraps (drizzle puts the database's in `cause`), has one of these codes. */
export function hasPostgresCode(error: unknown, codes: readonly string[]): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && codes.includes(code)) return true;
    current = cause;
  }
  return false;
}

/** A unique index refused the write (23505). */
export function isUniqueViolation(error: unknown): boolean {
  return hasPostgresCode(error, ['23505']);
}

/** Deadlock (40P01) or serialization failure (40001): the transaction may simply be run again. */
export function isTransientConflict(error: unknown): boolean {
  return hasPostgresCode(error, ['40P01', '40001']);
}
