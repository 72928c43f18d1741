import { and, asc, count, desc, eq, ilike, inArray, lt, or } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { fileDownloadRecords } from '../../db/schema.js';

export type DownloadRow = typeof fileDownloadRecords.$inferSelect;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** SQL of the download centre: records are always read and changed through their owner's id. */
export function createFilesRepository(db: Database) {
  return {
    async insert(row: {
      userId: number;
      companyId: number | null;
      kind: string;
      fileName: string;
      format: string;
      job?: unknown;
    }): Promise<DownloadRow> {
      const [created] = await db.insert(fileDownloadRecords).values(row).returning();
      if (!created) throw new Error('download record not created');
      return created;
    },

    async byId(id: number): Promise<DownloadRow | undefined> {
      const [row] = await db.select().from(fileDownloadRecords).where(eq(fileDownloadRecords.id, id));
      return row;
    },

    async start(id: number, path: string): Promise<void> {
      await db.update(fileDownloadRecords).set({ status: 'running', path }).where(eq(fileDownloadRecords.id, id));
    },

    async progress(id: number, progress: number, rows: number): Promise<void> {
      await db
        .update(fileDownloadRecords)
        .set({ progress, rows })
        .where(and(eq(fileDownloadRecords.id, id), eq(fileDownloadRecords.status, 'running')));
    },

    async finish(
      id: number,
      done: { rows: number | null; sizeBytes: number; finishedAt: Date; expiresAt: Date },
    ): Promise<DownloadRow | undefined> {
      const [row] = await db
        .update(fileDownloadRecords)
        .set({ ...done, status: 'done', progress: 100 })
        .where(eq(fileDownloadRecords.id, id))
        .returning();
      return row;
    },

    async fail(id: number, failed: { error: string; finishedAt: Date; expiresAt: Date }): Promise<void> {
      await db
        .update(fileDownloadRecords)
        .set({ status: 'failed', ...failed })
        .where(eq(fileDownloadRecords.id, id));
    },

    /** Jobs a previous process left queued or running, oldest first. */
    unfinished(): Promise<DownloadRow[]> {
      return db
        .select()
        .from(fileDownloadRecords)
        .where(inArray(fileDownloadRecords.status, ['queued', 'running']))
        .orderBy(asc(fileDownloadRecords.id));
    },

    /** Back to the queue from the start (a job stopped by a shutdown, or found unfinished at start). */
    async requeue(id: number): Promise<DownloadRow | undefined> {
      const [row] = await db
        .update(fileDownloadRecords)
        .set({ status: 'queued', progress: 0, rows: null, path: null })
        .where(and(eq(fileDownloadRecords.id, id), inArray(fileDownloadRecords.status, ['queued', 'running'])))
        .returning();
      return row;
    },

    async activeCount(userId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(fileDownloadRecords)
        .where(and(eq(fileDownloadRecords.userId, userId), inArray(fileDownloadRecords.status, ['queued', 'running'])));
      return Number(row?.n ?? 0);
    },

    async page(
      userId: number,
      filter: { status?: string; keyword?: string },
      page: number,
      size: number,
    ): Promise<{ rows: DownloadRow[]; total: number; active: number }> {
      const parts = [eq(fileDownloadRecords.userId, userId)];
      if (filter.status) parts.push(eq(fileDownloadRecords.status, filter.status));
      if (filter.keyword) parts.push(ilike(fileDownloadRecords.fileName, `%${escapeLike(filter.keyword)}%`));
      const where = and(...parts);
      const [rows, [total], active] = await Promise.all([
        db
          .select()
          .from(fileDownloadRecords)
          .where(where)
          .orderBy(desc(fileDownloadRecords.createdAt), desc(fileDownloadRecords.id))
          .limit(size)
          .offset((page - 1) * size),
        db.select({ n: count() }).from(fileDownloadRecords).where(where),
        this.activeCount(userId),
      ]);
      return { rows, total: Number(total?.n ?? 0), active };
    },

    /** The caller's records among `ids`, deleted; their rows returned so their files can be removed. */
    async deleteOwn(userId: number, ids: readonly number[]): Promise<DownloadRow[]> {
      return db
        .delete(fileDownloadRecords)
        .where(and(eq(fileDownloadRecords.userId, userId), inArray(fileDownloadRecords.id, [...ids])))
        .returning();
    },

    /** Done (or failed) records whose time ran out: marked expired, rows returned for their files. */
    async expire(now: Date): Promise<DownloadRow[]> {
      return db
        .update(fileDownloadRecords)
        .set({ status: 'expired' })
        .where(
          and(or(eq(fileDownloadRecords.status, 'done'), eq(fileDownloadRecords.status, 'failed')), lt(fileDownloadRecords.expiresAt, now)),
        )
        .returning();
    },

    /** Expired records older than `before` are forgotten. */
    async purge(before: Date): Promise<number> {
      const rows = await db
        .delete(fileDownloadRecords)
        .where(and(eq(fileDownloadRecords.status, 'expired'), lt(fileDownloadRecords.expiresAt, before)))
        .returning({ id: fileDownloadRecords.id });
      return rows.length;
    },
  };
}

export type FilesRepository = ReturnType<typeof createFilesRepository>;
