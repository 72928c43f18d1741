import { isTimeZoneName } from '@sunward/contracts/validators';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, sqlRows } from '../../db/rows.js';

/**
 * The time zones a plant may be in: every IANA name the database knows (plant-local days are computed
 * in SQL with `at time zone`) that this runtime can also format in (the same days in TypeScript). The
 * database's list is the IANA one (Asia/Kolkata, America/Argentina/Buenos_Aires, Etc/GMT+5, and the
 * older spellings such as Asia/Calcutta); Node's `Intl.supportedValuesOf` is ICU's and lacks many.
 * A plant keeps the name its user chose: nothing is canonicalised to an alias.
 */
export interface TimeZoneCatalogue {
  /** Every usable name, sorted. */
  names(): Promise<readonly string[]>;
  has(zone: string): Promise<boolean>;
}

/** tzdata files that are not zones a person picks (Factory is "-00"; posix/ and right/ are copies). */
function isPickable(name: string): boolean {
  return name !== 'Factory' && name !== 'localtime' && name !== 'posixrules' && !/^(posix|right)\//.test(name);
}

export function createTimeZoneCatalogue(db: Database): TimeZoneCatalogue {
  let loaded: Promise<{ names: string[]; set: Set<string> }> | undefined;
  const load = () => {
    // Read once per process: tzdata changes only with a database upgrade.
    loaded ??= sqlRows(db, { name: computed.text }, sql`select name from pg_timezone_names`).then(
      (rows) => {
        const names = rows
          .map((r) => r.name)
          .filter((name) => isPickable(name) && isTimeZoneName(name))
          .sort();
        return { names, set: new Set(names) };
      },
      (error: unknown) => {
        loaded = undefined;
        throw error;
      },
    );
    return loaded;
  };
  return {
    async names() {
      return (await load()).names;
    },
    async has(zone) {
      // The cheap check first: a name the runtime cannot format never needs the database.
      return isTimeZoneName(zone) && (await load()).set.has(zone);
    },
  };
}
