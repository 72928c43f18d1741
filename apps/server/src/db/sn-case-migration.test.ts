import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * Serial numbers unique regardless of case (issue 15, finding 7): migration 0025 builds unique indexes on
 * lower(sn) for gateways and devices. A database that already holds case duplicates (registered before)
 * migrates: the oldest row keeps its SN, later ones get '<sn>~<id>', nothing is deleted.
 */

const migrations = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const temp = mkdtempSync(join(tmpdir(), 'sunward-sn-case-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The migrations folder as it was before the SN migration. */
function migrationsBefore(tag: string): string {
  const folder = join(temp, 'before');
  cpSync(migrations, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const index = journal.entries.findIndex((e) => e.tag === tag);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }));
  return folder;
}

describe('migration 0025: serial numbers unique regardless of case', () => {
  it('keeps case duplicates already registered (the later ones renamed) and refuses new ones', async () => {
    const client = await PGlite.create();
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: migrationsBefore('0025_sn_case_insensitive') });
    await db.execute(sql`insert into gateways (sn, key_hash) values ('GW01', 'h'), ('gw01', 'h'), ('Gw01', 'h'), ('OTHER', 'h')`);
    await db.execute(sql`insert into devices (sn, family, protocol_id) values ('INV1', 'inverter', 'p'), ('inv1', 'inverter', 'p')`);

    await migrate(db, { migrationsFolder: migrations });

    const gateways = (await db.execute(sql`select id, sn from gateways order by id`)).rows as { id: number; sn: string }[];
    expect(gateways.map((g) => g.sn)).toEqual(['GW01', `gw01~${gateways[1]?.id}`, `Gw01~${gateways[2]?.id}`, 'OTHER']);
    const devices = (await db.execute(sql`select id, sn from devices order by id`)).rows as { id: number; sn: string }[];
    expect(devices.map((d) => d.sn)).toEqual(['INV1', `inv1~${devices[1]?.id}`]);

    await expect(db.execute(sql`insert into gateways (sn, key_hash) values ('other', 'h')`)).rejects.toThrow();
    await expect(db.execute(sql`insert into devices (sn, family, protocol_id) values ('Inv1', 'inverter', 'p')`)).rejects.toThrow();
    await client.close();
  }, 60_000);
});
