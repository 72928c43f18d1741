import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { computed, sqlRows } from '../db/rows.js';
import { companies } from '../db/schema.js';

/*
 * The channel hierarchy (issue 24): companies form a tree through companies.parent_id (maker →
 * distributors → installers → owners). A parent is set once, when a company's administrator creates the
 * child, and never changed, so the tree has no cycles (the recursive query uses UNION, so even a cycle
 * made by hand in the database would end).
 *
 * `inCompanySubtree` is THE tenant rule for plants, devices, gateways, events, commands, batch tasks and
 * firmware: every scope check asks it. It is one recursive query on the (small) companies table; with a
 * fixed root it is uncorrelated, so PostgreSQL runs it once per statement and hashes the ids (see
 * docs/decisions.md "Channel hierarchy" and docs/benchmarks.md for the figures).
 */

/** The ids of `root` and every company below it, as a subquery. */
function subtreeIds(root: SQL | number): SQL {
  return sql`(with recursive company_subtree(id) as (
      select id from companies where id = ${root}
      union select c.id from companies c join company_subtree t on c.parent_id = t.id)
    select id from company_subtree)`;
}

/**
 * SQL condition: the company (an id column or value) is `root` or below it. A null company or a null
 * root is never inside.
 */
export function inCompanySubtree(company: SQL, root: SQL | number | null): SQL {
  if (root === null) return sql`false`;
  return sql`(${company} in ${subtreeIds(root)})`;
}

/** The ids of `root` and every company below it (for checks made in code). */
export async function companySubtree(db: Database, root: number | null): Promise<Set<number>> {
  if (root === null) return new Set();
  const rows = await sqlRows(db, { id: companies.id }, sql`select id from companies where ${inCompanySubtree(sql`id`, root)}`);
  return new Set(rows.map((r) => r.id));
}

/** The company and its ancestors, root first (for inheritance: branding), walking up the parents. */
export async function companyLineage(db: Database, companyId: number): Promise<number[]> {
  const rows = await sqlRows(
    db,
    { id: companies.id, depth: computed.number },
    sql`with recursive lineage(id, parent_id, depth) as (
          select id, parent_id, 0 from companies where id = ${companyId}
          union select c.id, c.parent_id, l.depth + 1 from companies c join lineage l on c.id = l.parent_id where l.depth < 64)
        select id, depth from lineage order by depth desc`,
  );
  return rows.map((r) => r.id);
}
