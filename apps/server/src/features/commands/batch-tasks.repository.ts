import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, sqlRows, tableRows } from '../../db/rows.js';
import { batchTaskItems, batchTasks, deviceCommands } from '../../db/schema.js';
import { companySubtree, inCompanySubtree } from '../../lib/company-tree.js';

/** A batch task as stored: the schema's own row type. */
export type TaskRecord = typeof batchTasks.$inferSelect;

/** An item of a task, with its command's status and message when it has one. */
export type ItemRecord = Awaited<ReturnType<BatchTasksRepository['items']>>[number];

/** SQL for batch tasks and their items (state lives here, so a restarted server resumes). */
export function createBatchTasksRepository(db: Database) {
  return {
    async create(
      entry: Omit<TaskRecord, 'id' | 'createdAt' | 'finishedAt' | 'pausedReason'>,
      /** skipped items (not compatible with the image, a battery slave, already on its version) never run. */
      items: { sn: string; wave: number; skipped?: string }[],
    ): Promise<number> {
      return db.transaction(async (tx) => {
        const [row] = await sqlRows(
          tx,
          { id: batchTasks.id },
          sql`insert into batch_tasks (name, type, firm_id, target_version, run_at, status, canary_percent, failure_threshold_percent, user_id, account, company_id, role_key)
              values (${entry.name}, ${entry.type}, ${entry.firmId}, ${entry.targetVersion}, ${entry.runAt?.toISOString() ?? null}, ${entry.status},
                      ${entry.canaryPercent}, ${entry.failureThresholdPercent}, ${entry.userId}, ${entry.account}, ${entry.companyId}, ${entry.roleKey})
              returning id`,
        );
        const id = Number(row?.id);
        await tx.execute(sql`insert into batch_task_items (task_id, sn, wave, status, message)
          select ${id}, i.sn, i.wave, case when i.skip is null then 'pending' else 'skipped' end, i.skip
          from unnest(${sql.param(items.map((i) => i.sn))}::text[], ${sql.param(items.map((i) => i.wave))}::int[],
                      ${sql.param(items.map((i) => i.skipped ?? null))}::text[]) as i(sn, wave, skip)`);
        return id;
      });
    },

    /** The caller's company and those below it (issue 24: a company runs its subtree's tasks). */
    subtree: (companyId: number | null) => companySubtree(db, companyId),

    async byId(id: number): Promise<TaskRecord | undefined> {
      const [row] = await db.select().from(batchTasks).where(eq(batchTasks.id, id));
      return row;
    },

    async page(filter: { companyId: number | null; userId: number; all: boolean }, page: number, size: number) {
      const where = filter.all
        ? sql`true`
        : filter.companyId === null
          ? sql`t.user_id = ${filter.userId}`
          : inCompanySubtree(sql`t.company_id`, filter.companyId);
      const [rows, total] = await Promise.all([
        tableRows(
          db,
          batchTasks,
          sql`select t.*, (select count(*) from batch_task_items i where i.task_id = t.id)::int as items,
                     (select count(*) from batch_task_items i where i.task_id = t.id and i.status = 'successful')::int as successful,
                     (select count(*) from batch_task_items i where i.task_id = t.id and i.status = 'failed')::int as failed,
                     (select count(*) from batch_task_items i where i.task_id = t.id and i.status = 'skipped')::int as skipped
              from batch_tasks t where ${where} order by t.id desc limit ${size} offset ${(page - 1) * size}`,
          { items: computed.number, successful: computed.number, failed: computed.number, skipped: computed.number },
        ),
        sqlRows(db, { n: computed.number }, sql`select count(*)::int as n from batch_tasks t where ${where}`),
      ]);
      return { infos: rows, total: total[0]?.n ?? 0 };
    },

    async items(taskId: number) {
      return db
        .select({
          id: batchTaskItems.id,
          sn: batchTaskItems.sn,
          wave: batchTaskItems.wave,
          status: batchTaskItems.status,
          commandId: batchTaskItems.commandId,
          message: batchTaskItems.message,
          commandStatus: deviceCommands.status,
          commandMessage: sql<string | null>`${deviceCommands.result}->>'message'`,
        })
        .from(batchTaskItems)
        .leftJoin(deviceCommands, eq(deviceCommands.id, batchTaskItems.commandId))
        .where(eq(batchTaskItems.taskId, taskId))
        .orderBy(batchTaskItems.wave, batchTaskItems.id);
    },

    /** Tasks the scheduler works on: planned ones that are due, and running ones. */
    async active(now: Date): Promise<TaskRecord[]> {
      return db
        .select()
        .from(batchTasks)
        .where(
          or(
            eq(batchTasks.status, 'running'),
            and(eq(batchTasks.status, 'plan'), or(isNull(batchTasks.runAt), lte(batchTasks.runAt, now))),
          ),
        )
        .orderBy(batchTasks.id);
    },

    async setStatus(id: number, status: string, pausedReason: string | null = null): Promise<void> {
      await db.execute(sql`update batch_tasks set status = ${status}, paused_reason = ${pausedReason},
        finished_at = case when ${status} in ('done', 'terminated') then now() else null end where id = ${id}`);
    },

    async setItem(id: number, status: string, commandId: number | null, message: string | null): Promise<void> {
      await db.execute(
        sql`update batch_task_items set status = ${status}, command_id = coalesce(${commandId}, command_id), message = ${message}, updated_at = now() where id = ${id}`,
      );
    },

    /** Failed items go back to pending (retry); answers how many. */
    async retryFailed(taskId: number): Promise<number> {
      const rows = await sqlRows(
        db,
        { id: batchTaskItems.id },
        sql`update batch_task_items set status = 'pending', command_id = null, message = null, updated_at = now()
            where task_id = ${taskId} and status = 'failed' returning id`,
      );
      return rows.length;
    },
  };
}

export type BatchTasksRepository = ReturnType<typeof createBatchTasksRepository>;
