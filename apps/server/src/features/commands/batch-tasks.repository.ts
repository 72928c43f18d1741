import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.js';

export interface TaskRecord {
  id: number;
  name: string;
  type: string;
  firmId: number;
  targetVersion: string;
  runAt: Date | null;
  status: string;
  canaryPercent: number;
  failureThresholdPercent: number;
  pausedReason: string | null;
  userId: number;
  account: string;
  companyId: number | null;
  roleKey: string;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface ItemRecord {
  id: number;
  sn: string;
  wave: number;
  status: string;
  commandId: number | null;
  message: string | null;
  /** The item's command, when it has one: its status and how long it has been pending. */
  commandStatus: string | null;
  commandMessage: string | null;
}

const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));

function task(r: Record<string, unknown>): TaskRecord {
  return {
    id: Number(r.id),
    name: String(r.name),
    type: String(r.type),
    firmId: Number(r.firm_id),
    targetVersion: String(r.target_version),
    runAt: date(r.run_at),
    status: String(r.status),
    canaryPercent: Number(r.canary_percent),
    failureThresholdPercent: Number(r.failure_threshold_percent),
    pausedReason: (r.paused_reason as string | null) ?? null,
    userId: Number(r.user_id),
    account: String(r.account),
    companyId: r.company_id === null || r.company_id === undefined ? null : Number(r.company_id),
    roleKey: String(r.role_key),
    createdAt: date(r.created_at) ?? new Date(0),
    finishedAt: date(r.finished_at),
  };
}

/** SQL for batch tasks and their items (state lives here, so a restarted server resumes). */
export function createBatchTasksRepository(db: Database) {
  return {
    async create(
      entry: Omit<TaskRecord, 'id' | 'createdAt' | 'finishedAt' | 'pausedReason'>,
      /** skipped items (not compatible with the image, a battery slave, already on its version) never run. */
      items: { sn: string; wave: number; skipped?: string }[],
    ): Promise<number> {
      return db.transaction(async (tx) => {
        const [row] = await queryRows<{ id: number }>(
          tx,
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

    async byId(id: number): Promise<TaskRecord | undefined> {
      const [row] = await queryRows<Record<string, unknown>>(db, sql`select * from batch_tasks where id = ${id}`);
      return row ? task(row) : undefined;
    },

    async page(filter: { companyId: number | null; userId: number; all: boolean }, page: number, size: number) {
      const where = filter.all
        ? sql`true`
        : filter.companyId === null
          ? sql`t.user_id = ${filter.userId}`
          : sql`t.company_id = ${filter.companyId}`;
      const [rows, total] = await Promise.all([
        queryRows<Record<string, unknown>>(
          db,
          sql`select t.*, (select count(*) from batch_task_items i where i.task_id = t.id)::int as items,
                     (select count(*) from batch_task_items i where i.task_id = t.id and i.status = 'successful')::int as successful,
                     (select count(*) from batch_task_items i where i.task_id = t.id and i.status = 'failed')::int as failed,
                     (select count(*) from batch_task_items i where i.task_id = t.id and i.status = 'skipped')::int as skipped
              from batch_tasks t where ${where} order by t.id desc limit ${size} offset ${(page - 1) * size}`,
        ),
        queryRows<{ n: number }>(db, sql`select count(*)::int as n from batch_tasks t where ${where}`),
      ]);
      return {
        infos: rows.map((r) => ({
          ...task(r),
          items: Number(r.items),
          successful: Number(r.successful),
          failed: Number(r.failed),
          skipped: Number(r.skipped),
        })),
        total: Number(total[0]?.n ?? 0),
      };
    },

    async items(taskId: number): Promise<ItemRecord[]> {
      const rows = await queryRows<Record<string, unknown>>(
        db,
        sql`select i.id, i.sn, i.wave, i.status, i.command_id, i.message, c.status as command_status, c.result->>'message' as command_message
            from batch_task_items i left join device_commands c on c.id = i.command_id
            where i.task_id = ${taskId} order by i.wave, i.id`,
      );
      return rows.map((r) => ({
        id: Number(r.id),
        sn: String(r.sn),
        wave: Number(r.wave),
        status: String(r.status),
        commandId: r.command_id === null ? null : Number(r.command_id),
        message: (r.message as string | null) ?? null,
        commandStatus: (r.command_status as string | null) ?? null,
        commandMessage: (r.command_message as string | null) ?? null,
      }));
    },

    /** Tasks the scheduler works on: planned ones that are due, and running ones. */
    async active(now: Date): Promise<TaskRecord[]> {
      const rows = await queryRows<Record<string, unknown>>(
        db,
        sql`select * from batch_tasks where status = 'running' or (status = 'plan' and (run_at is null or run_at <= ${now.toISOString()}::timestamptz)) order by id`,
      );
      return rows.map(task);
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
      const rows = await queryRows<{ id: number }>(
        db,
        sql`update batch_task_items set status = 'pending', command_id = null, message = null, updated_at = now()
            where task_id = ${taskId} and status = 'failed' returning id`,
      );
      return rows.length;
    },
  };
}

export type BatchTasksRepository = ReturnType<typeof createBatchTasksRepository>;
