import { and, asc, count, desc, eq, isNotNull, lt, lte, ne } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { acSwitches, acSwitchTaskRuns, acSwitchTasks, plants, roles, users } from '../../db/schema.js';

export type SwitchTaskRecord = typeof acSwitchTasks.$inferSelect;
export type SwitchTaskRunRecord = typeof acSwitchTaskRuns.$inferSelect;
export type NewSwitchTask = Omit<typeof acSwitchTasks.$inferInsert, 'id' | 'createdAt'>;
export type NewSwitchTaskRun = Omit<typeof acSwitchTaskRuns.$inferInsert, 'id' | 'at'>;

/** A due task with the account it runs for, as that account is now (role, company, disabled). */
export interface DueSwitchTask extends SwitchTaskRecord {
  account: string | null;
  roleKey: string | null;
  companyId: number | null;
  disabled: boolean;
  /** The time zone of the switch's plant now; null when the switch is in no plant. */
  timeZone: string | null;
}

/** SQL of the timed tasks of AC switches and their history (switch-tasks.service). */
export function createSwitchTasksRepository(db: Database) {
  return {
    async list(switchId: number): Promise<(SwitchTaskRecord & { createdBy: string | null })[]> {
      return db
        .select({ task: acSwitchTasks, createdBy: users.account })
        .from(acSwitchTasks)
        .leftJoin(users, eq(users.id, acSwitchTasks.userId))
        .where(eq(acSwitchTasks.switchId, switchId))
        .orderBy(asc(acSwitchTasks.id))
        .then((rows) => rows.map((r) => ({ ...r.task, createdBy: r.createdBy })));
    },

    async find(switchId: number, id: number): Promise<SwitchTaskRecord | undefined> {
      const [row] = await db
        .select()
        .from(acSwitchTasks)
        .where(and(eq(acSwitchTasks.switchId, switchId), eq(acSwitchTasks.id, id)));
      return row;
    },

    async insert(task: NewSwitchTask): Promise<number> {
      const [row] = await db.insert(acSwitchTasks).values(task).returning({ id: acSwitchTasks.id });
      if (!row) throw new Error('task insert returned no row');
      return row.id;
    },

    async update(id: number, change: Partial<Pick<SwitchTaskRecord, 'enabled' | 'nextRunAt'>>): Promise<void> {
      await db.update(acSwitchTasks).set(change).where(eq(acSwitchTasks.id, id));
    },

    async remove(switchId: number, id: number): Promise<boolean> {
      const gone = await db
        .delete(acSwitchTasks)
        .where(and(eq(acSwitchTasks.switchId, switchId), eq(acSwitchTasks.id, id)))
        .returning({ id: acSwitchTasks.id });
      return gone.length > 0;
    },

    /** Tasks whose next run is due, oldest first, with the account they run for. */
    async due(now: Date, limit: number): Promise<DueSwitchTask[]> {
      const rows = await db
        .select({
          task: acSwitchTasks,
          account: users.account,
          roleKey: roles.key,
          companyId: users.companyId,
          disabledAt: users.disabledAt,
          timeZone: plants.timezone,
        })
        .from(acSwitchTasks)
        .innerJoin(acSwitches, eq(acSwitches.id, acSwitchTasks.switchId))
        .leftJoin(plants, eq(plants.id, acSwitches.plantId))
        .leftJoin(users, eq(users.id, acSwitchTasks.userId))
        .leftJoin(roles, eq(roles.id, users.roleId))
        .where(and(eq(acSwitchTasks.enabled, true), isNotNull(acSwitchTasks.nextRunAt), lte(acSwitchTasks.nextRunAt, now)))
        .orderBy(asc(acSwitchTasks.nextRunAt))
        .limit(limit);
      return rows.map((r) => ({
        ...r.task,
        account: r.account,
        roleKey: r.roleKey,
        companyId: r.companyId,
        disabled: r.disabledAt !== null,
        timeZone: r.timeZone,
      }));
    },

    /**
     * Claims one occurrence: moves the task from the run it was due for to its next one, only if no other pass
     * (another server process) moved it first. True when this pass owns the occurrence.
     */
    async claim(id: number, dueAt: Date, next: Date | null): Promise<boolean> {
      const moved = await db
        .update(acSwitchTasks)
        .set({ nextRunAt: next })
        .where(and(eq(acSwitchTasks.id, id), eq(acSwitchTasks.nextRunAt, dueAt)))
        .returning({ id: acSwitchTasks.id });
      return moved.length > 0;
    },

    async addRun(run: NewSwitchTaskRun): Promise<number> {
      const [row] = await db.insert(acSwitchTaskRuns).values(run).returning({ id: acSwitchTaskRuns.id });
      if (!row) throw new Error('task run insert returned no row');
      return row.id;
    },

    /**
     * Runs left `running` by a process that stopped without settling them (a crash): an on/off run started before
     * `onOffBefore`, a self-check started before `selfCheckBefore`, recorded failed with `code`. How many.
     */
    async abandonRuns(onOffBefore: Date, selfCheckBefore: Date, code: number): Promise<number> {
      const running = eq(acSwitchTaskRuns.outcome, 'running');
      const [onOff, checks] = await Promise.all([
        db
          .update(acSwitchTaskRuns)
          .set({ outcome: 'failed', code })
          .where(and(running, ne(acSwitchTaskRuns.kind, 'selfcheck'), lt(acSwitchTaskRuns.at, onOffBefore)))
          .returning({ id: acSwitchTaskRuns.id }),
        db
          .update(acSwitchTaskRuns)
          .set({ outcome: 'failed', code })
          .where(and(running, eq(acSwitchTaskRuns.kind, 'selfcheck'), lt(acSwitchTaskRuns.at, selfCheckBefore)))
          .returning({ id: acSwitchTaskRuns.id }),
      ]);
      return onOff.length + checks.length;
    },

    async finishRun(id: number, change: Pick<SwitchTaskRunRecord, 'outcome' | 'code' | 'commandId' | 'result'>): Promise<void> {
      await db.update(acSwitchTaskRuns).set(change).where(eq(acSwitchTaskRuns.id, id));
    },

    async history(switchId: number, page: number, size: number): Promise<{ rows: SwitchTaskRunRecord[]; total: number }> {
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(acSwitchTaskRuns)
          .where(eq(acSwitchTaskRuns.switchId, switchId))
          .orderBy(desc(acSwitchTaskRuns.scheduledFor), desc(acSwitchTaskRuns.id))
          .limit(size)
          .offset((page - 1) * size),
        db.select({ n: count() }).from(acSwitchTaskRuns).where(eq(acSwitchTaskRuns.switchId, switchId)),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
  };
}

export type SwitchTasksRepository = ReturnType<typeof createSwitchTasksRepository>;
