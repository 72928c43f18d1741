import type { NoticeFields, NoticeListQuery, NoticeRow, NoticeStatusValue } from '@sunward/contracts/notices';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, sqlRows, tableRows } from '../../db/rows.js';
import { notices, users } from '../../db/schema.js';

function suggestsOf(value: unknown): NoticeRow['suggests'] {
  const list = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  if (!Array.isArray(list)) return [];
  return list.map((s: { zhSuggest?: unknown; enSuggest?: unknown }) => ({
    zhSuggest: String(s.zhSuggest ?? ''),
    enSuggest: String(s.enSuggest ?? ''),
  }));
}

/** A stored notice (typed from the drizzle schema) and its creator's account, as the console shows it. */
type StoredNotice = typeof notices.$inferSelect & { creator: string | null };

function toRow(r: StoredNotice): NoticeRow {
  return {
    id: r.id,
    type: r.type,
    scope: r.scope,
    status: r.status,
    startTime: r.startTime.toISOString(),
    endTime: r.endTime.toISOString(),
    effectiveTime: r.effectiveTime.toISOString(),
    impact: r.impact,
    zhDesc: r.zhDesc,
    enDesc: r.enDesc,
    zhDuration: r.zhDuration,
    enDuration: r.enDuration,
    suggests: suggestsOf(r.suggests),
    creator: r.creator,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    publishedAt: r.publishedAt?.toISOString() ?? null,
  };
}

/** Notices with their creator: rows typed from the schema (tableRows). */
const stored = (db: Database, query: SQL) => tableRows(db, notices, query, { creator: nullable(users.account) });

const SELECT = sql`select n.*, u.account as creator from notices n left join users u on u.id = n.creator_id`;

/** All SQL of the maintenance notices. */
export function createNoticesRepository(db: Database) {
  return {
    async page(q: NoticeListQuery): Promise<{ infos: NoticeRow[]; total: number }> {
      const parts: SQL[] = [sql`true`];
      if (q.status !== undefined) parts.push(sql`n.status = ${q.status}`);
      if (q.type !== undefined) parts.push(sql`n.type = ${q.type}`);
      const where = sql.join(parts, sql` and `);
      const [rows, counts] = await Promise.all([
        stored(db, sql`${SELECT} where ${where} order by n.created_at desc, n.id desc limit ${q.size} offset ${(q.page - 1) * q.size}`),
        sqlRows(db, { n: computed.number }, sql`select count(*)::int as n from notices n where ${where}`),
      ]);
      return { infos: rows.map(toRow), total: counts[0]?.n ?? 0 };
    },

    async byId(id: number): Promise<NoticeRow | undefined> {
      const [row] = await stored(db, sql`${SELECT} where n.id = ${id}`);
      return row ? toRow(row) : undefined;
    },

    async insert(f: NoticeFields, creatorId: number): Promise<number> {
      const [row] = await sqlRows(
        db,
        { id: notices.id },
        sql`insert into notices (type, scope, start_time, end_time, effective_time, impact, zh_desc, en_desc, zh_duration, en_duration,
              suggests, creator_id)
            values (${f.type}, ${f.scope}, ${f.startTime}, ${f.endTime}, ${f.effectiveTime}, ${f.impact}, ${f.zhDesc}, ${f.enDesc},
              ${f.zhDuration}, ${f.enDuration}, ${JSON.stringify(f.suggests)}::jsonb, ${creatorId})
            returning id`,
      );
      if (!row) throw new Error('notice not inserted');
      return row.id;
    },

    /** Replaces a notice's fields unless it is invalid (status 2); false when nothing changed. */
    async update(id: number, f: NoticeFields): Promise<boolean> {
      const rows = await sqlRows(
        db,
        { id: notices.id },
        sql`update notices set type = ${f.type}, scope = ${f.scope}, start_time = ${f.startTime}, end_time = ${f.endTime},
              effective_time = ${f.effectiveTime}, impact = ${f.impact}, zh_desc = ${f.zhDesc}, en_desc = ${f.enDesc},
              zh_duration = ${f.zhDuration}, en_duration = ${f.enDuration}, suggests = ${JSON.stringify(f.suggests)}::jsonb,
              updated_at = now()
            where id = ${id} and status <> 2 returning id`,
      );
      return rows.length > 0;
    },

    /** Moves a notice from one status to another; false when it was no longer in `from` (a concurrent change). */
    async changeStatus(id: number, from: NoticeStatusValue, to: NoticeStatusValue): Promise<boolean> {
      const rows = await sqlRows(
        db,
        { id: notices.id },
        sql`update notices set status = ${to}, updated_at = now(),
              published_at = case when ${to}::int = 0 then now() else published_at end
            where id = ${id} and status = ${from} returning id`,
      );
      return rows.length > 0;
    },

    /** The published notice whose window holds `at` for one of `scopes`: the latest to start wins. */
    async inForce(at: Date, scopes: readonly string[]): Promise<NoticeRow | undefined> {
      // Guard against an empty scope list: `in ()` is invalid SQL.
      if (scopes.length === 0) return undefined;
      const [row] = await stored(
        db,
        sql`${SELECT} where n.status = 0 and n.start_time <= ${at.toISOString()} and n.end_time > ${at.toISOString()}
              and n.scope in (${sql.join(
                scopes.map((s) => sql`${s}`),
                sql`, `,
              )})
            order by n.start_time desc, n.id desc limit 1`,
      );
      return row ? toRow(row) : undefined;
    },

    /** Suggestions of the latest notices, newest first, for the form's picker. */
    async recentSuggests(count: number): Promise<NoticeRow['suggests']> {
      const rows = await sqlRows(
        db,
        { suggests: notices.suggests },
        sql`select suggests from notices order by created_at desc, id desc limit ${count}`,
      );
      return rows.flatMap((r) => suggestsOf(r.suggests));
    },
  };
}

export type NoticesRepository = ReturnType<typeof createNoticesRepository>;
