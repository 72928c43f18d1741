/**
 * Storing a batch so that one report's data cannot fail the others: a batch the database refuses on its
 * rows is split in halves until the refusing report (then the refusing reading) stands alone; that one
 * is refused (acknowledged, counted, logged), everything else is stored. A failure that is not about the
 * data (connection lost, disk full) fails the whole batch: nothing is acknowledged, gateways resend.
 */

/** The SQLSTATE of the error or of an error it wraps (drizzle puts the database's in `cause`). */
function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = cause;
  }
  return undefined;
}

/**
 * Refused because of the rows themselves: a data exception (SQLSTATE class 22: out of range, bad
 * encoding), an integrity constraint (class 23: a deleted device's foreign key), or a RangeError while
 * the rows were built (an invalid time, time zone or number). Anything else (a lost connection, a full
 * disk, a bug) is not about one report: splitting would refuse them all.
 */
export function isDataError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if (current instanceof RangeError) return true;
    current = (current as { cause?: unknown }).cause;
  }
  const state = sqlState(error);
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'));
}

/** A row names a device that no longer exists (23503): deleted between decoding and writing. */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlState(error) === '23503';
}

export interface SplitStore<T> {
  write(parts: T[]): Promise<void>;
  /** One part as smaller ones (a report as its readings); one element or none when it cannot be split. */
  split(part: T): T[];
  /** After a foreign-key refusal: the parts without the readings of devices deleted meanwhile, or null when none were. */
  dropDeleted(parts: T[]): Promise<T[] | null>;
  stored(parts: T[]): void;
  refused(part: T, error: unknown): void;
  failed(parts: T[], error: unknown): void;
}

/** Stores `parts`, splitting on data errors; every part ends stored, refused or failed. Never throws. */
export async function storeSplitting<T>(parts: T[], store: SplitStore<T>): Promise<void> {
  if (parts.length === 0) return;
  try {
    await store.write(parts);
  } catch (error) {
    if (!isDataError(error)) {
      store.failed(parts, error);
      return;
    }
    if (isForeignKeyViolation(error)) {
      let rest: T[] | null;
      try {
        rest = await store.dropDeleted(parts);
      } catch (lookupError) {
        store.failed(parts, lookupError);
        return;
      }
      if (rest) return storeSplitting(rest, store);
    }
    if (parts.length > 1) {
      const middle = parts.length >> 1;
      await storeSplitting(parts.slice(0, middle), store);
      await storeSplitting(parts.slice(middle), store);
      return;
    }
    const [part] = parts as [T];
    const smaller = store.split(part);
    if (smaller.length > 1) return storeSplitting(smaller, store);
    store.refused(part, error);
    return;
  }
  store.stored(parts);
}
