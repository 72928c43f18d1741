import {
  AC_SWITCH_TASK_LIMITS,
  AC_SWITCH_TASK_OUTCOMES,
  type AcSwitchSelfCheckStarted,
  type AcSwitchTask,
  type AcSwitchTaskBody,
  type AcSwitchTaskHistory,
  type AcSwitchTaskOutcome,
  type AcSwitchTasks,
} from '@sunward/contracts/ac-switch-tasks';
import { AC_SWITCH_LIMITS } from '@sunward/contracts/ac-switches';
import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { isMessageKey, translate } from '@sunward/contracts/messages';
import type { PlantAccessLevel } from '@sunward/contracts/plants';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { OperationLog } from '../audit/operation-log.js';
import type { AcSwitchRecord } from './ac-switches.repository.js';
import { nextOccurrence, selfCheckWaitMs, type TaskTiming, tasksOverlap, weekdayBits, weekdaysOf } from './switch-task-schedule.js';
import type { DueSwitchTask, SwitchTaskRecord, SwitchTasksRepository } from './switch-tasks.repository.js';

/** What the tasks need of the switches (ac-switches.service) and of the remote commands. */
export interface TaskSwitches {
  reach(auth: AuthContext, id: number, needed: PlantAccessLevel): Promise<AcSwitchRecord>;
  switchForTask(auth: AuthContext, id: number, on: boolean, language: Language): Promise<{ commandId: number; confirmed: boolean }>;
  startSelfCheck(
    auth: AuthContext,
    id: number,
    language: Language,
    options: { password?: string; confirmed?: boolean },
  ): Promise<{ commandId: number; countBefore: number | null }>;
  selfCheckResult(id: number, countBefore: number | null): Promise<{ passed: boolean; leakageMa: number | null } | null>;
}

const messageOf = (language: Language, code: number): string => {
  const key = `code.${code}`;
  return isMessageKey(key) ? translate(language, key) : translate(language, 'code.500');
};

/** Codes of a run that did not happen because of the switch or the account (the rest are failures). */
/** How often the scheduler looks for runs a stopped process left running, and how old an on/off run must be. */
const ABANDONED_SWEEP_MS = 60_000;
const ABANDONED_ON_OFF_MS = 15 * 60_000;

const REFUSALS = new Set<number>([
  Code.AC_SWITCH_OFF_LOCALLY,
  Code.AC_SWITCH_SELFCHECK_OFF,
  Code.AC_SWITCH_NOT_REPORTING,
  Code.AC_SWITCH_NOT_FOUND,
  Code.AC_SWITCH_NOT_IN_PLANT,
  Code.NO_PERMISSION,
  Code.ACCOUNT_DISABLED,
  Code.DEVICE_OFFLINE,
]);

/** A stored kind (text) as the schedule knows it. */
const kindOf = (kind: string): TaskTiming['kind'] => (kind === 'repeat' ? 'repeat' : kind === 'selfcheck' ? 'selfcheck' : 'single');

const timingOf = (t: Pick<SwitchTaskRecord, 'kind' | 'date' | 'time' | 'weekdays' | 'monthDay'>): TaskTiming => ({
  kind: kindOf(t.kind),
  date: t.date,
  time: t.time,
  weekdays: t.weekdays,
  monthDay: t.monthDay,
});

/**
 * Timed tasks of smart AC switches (issue 22 part 1): single (a plant-local date and time) or repeat (weekdays
 * at a time), in the plant's time zone across daylight-saving changes (switch-task-schedule.ts). A task is made
 * with the password again (it will cut or close a circuit unattended) and runs on its maker's behalf, at their
 * level on the plant when it runs. The scheduler pass (`tick`, every few seconds) claims each due occurrence
 * once, even with several server processes; an occurrence the server missed while it was down runs once if it
 * comes back within the grace window, else it is recorded as missed. Every run lands in the task history.
 */
export function createSwitchTasksService(deps: {
  repository: SwitchTasksRepository;
  switches: TaskSwitches;
  confirmPassword(auth: AuthContext, password: string | undefined): Promise<void>;
  log: OperationLog;
  now?: () => number;
  /** After a (re)start nothing runs for this long: gateways are reconnecting (as for batch tasks). */
  startGraceMs?: number;
  /** How often a started self-check looks for the switch's verdict in its readings. */
  selfCheckPollMs?: number;
}) {
  const { repository, switches, log } = deps;
  const now = deps.now ?? Date.now;
  const startedAt = now();
  const startGraceMs = deps.startGraceMs ?? 10_000;
  const graceMs = AC_SWITCH_TASK_LIMITS.graceMinutes * 60_000;
  let ticking = false;
  let sweptAt = 0;
  let stopping = false;
  const running = new Set<Promise<void>>();
  const pollMs = deps.selfCheckPollMs ?? 1_000;
  const track = (work: Promise<void>) => {
    const run = work.finally(() => running.delete(run));
    running.add(run);
  };

  /**
   * Follows a started self-check until the switch reports its verdict (done, passed or not, with the leakage it
   * measured; a failed one also raises the switch's own Evt alarm) or `waitMs` passes (failed, 4439). Closing the
   * server ends the wait the same way.
   */
  async function followSelfCheck(runId: number, switchId: number, commandId: number, countBefore: number | null, waitMs: number) {
    const deadline = now() + waitMs;
    try {
      while (!stopping && now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        const verdict = await switches.selfCheckResult(switchId, countBefore);
        if (verdict) {
          await repository.finishRun(runId, { outcome: 'done', code: null, commandId, result: verdict });
          return;
        }
      }
    } catch {
      // Reading failed: recorded below as no result.
    }
    await repository.finishRun(runId, { outcome: 'failed', code: Code.AC_SWITCH_SELFCHECK_NO_RESULT, commandId, result: null });
  }

  const zoneOf = (found: AcSwitchRecord): string => {
    if (found.plantId === null || !found.plantTimeZone) throw new ApiError(Code.AC_SWITCH_NOT_IN_PLANT);
    return found.plantTimeZone;
  };

  function toTask(t: SwitchTaskRecord & { createdBy: string | null }, timeZone: string): AcSwitchTask {
    return {
      id: t.id,
      switchId: t.switchId,
      kind: kindOf(t.kind),
      on: t.on,
      date: t.date,
      time: t.time,
      weekdays: weekdaysOf(t.weekdays),
      monthDay: t.monthDay,
      enabled: t.enabled,
      nextRunAt: t.enabled && t.nextRunAt ? t.nextRunAt.toISOString() : null,
      timeZone,
      createdBy: t.createdBy,
      createdAt: t.createdAt.toISOString(),
    };
  }

  /** The creator as the commands see them now (their level on the switch's plant is checked at each run). */
  const runner = (task: DueSwitchTask): AuthContext => ({
    userId: task.userId ?? 0,
    sessionId: `switch-task-${task.id}`,
    account: task.account ?? '',
    roleId: 0,
    roleKey: task.roleKey ?? '',
    companyId: task.companyId,
    readOnly: false,
    permissions: new Set(),
    ip: '',
  });

  async function runOne(task: DueSwitchTask, dueAt: Date): Promise<void> {
    const late = now() - dueAt.getTime() > graceMs;
    const base = { taskId: task.id, switchId: task.switchId, kind: task.kind, on: task.on, scheduledFor: dueAt };
    if (late) {
      await repository.addRun({ ...base, outcome: 'missed', code: Code.AC_SWITCH_TASK_MISSED, commandId: null, result: null });
      return;
    }
    // Running until the switch answers (the history shows it under way); a crash before then is settled by sweep().
    const runId = await repository.addRun({ ...base, outcome: 'running', code: null, commandId: null, result: null });
    let outcome: AcSwitchTaskOutcome = 'done';
    let code: number | null = null;
    let commandId: number | null = null;
    try {
      if (task.userId === null || task.disabled) throw new ApiError(task.userId === null ? Code.NO_PERMISSION : Code.ACCOUNT_DISABLED);
      const auth = runner(task);
      const found = await switches.reach(auth, task.switchId, 'operate');
      zoneOf(found);
      if (task.kind === 'selfcheck') {
        // The test instead of on/off: started (the switch confirmed), then its verdict followed in the reports.
        const started = await switches.startSelfCheck(auth, task.switchId, 'en', { confirmed: true });
        await repository.finishRun(runId, { outcome: 'running', code: null, commandId: started.commandId, result: null });
        await followSelfCheck(runId, task.switchId, started.commandId, started.countBefore, selfCheckWaitMs(found.frequency));
        return;
      }
      const result = await switches.switchForTask(auth, task.switchId, task.on, 'en');
      commandId = result.commandId;
      if (!result.confirmed) {
        outcome = 'failed';
        code = Code.AC_SWITCH_TASK_UNCONFIRMED;
      }
    } catch (error) {
      code = error instanceof ApiError ? error.responseCode : Code.SERVER_ERROR;
      outcome = REFUSALS.has(code) ? 'refused' : 'failed';
      const data = error instanceof ApiError && error.data && typeof error.data === 'object' ? error.data : null;
      if (data && 'commandId' in data && typeof data.commandId === 'number') commandId = data.commandId;
    }
    await repository.finishRun(runId, { outcome, code, commandId, result: null });
  }

  return {
    /**
     * "Self-check now": the password again (the circuit is cut for 10 s); refused as the switch would be (4428 not
     * reporting, 4427 off locally, 4438 off). Answers once the switch confirmed the start; the run is in the history
     * as running until the verdict comes in.
     */
    async selfCheckNow(
      auth: AuthContext,
      switchId: number,
      password: string | undefined,
      language: Language,
    ): Promise<AcSwitchSelfCheckStarted> {
      const found = await switches.reach(auth, switchId, 'operate');
      const started = await switches.startSelfCheck(auth, switchId, language, password === undefined ? {} : { password });
      const at = new Date(now());
      const runId = await repository.addRun({
        taskId: null,
        switchId,
        kind: 'selfcheck',
        on: false,
        scheduledFor: at,
        outcome: 'running',
        code: null,
        commandId: started.commandId,
        result: null,
      });
      await log.record(auth, {
        action: 'acSwitch.selfCheck',
        targetType: 'device',
        target: found.sn,
        plantId: found.plantId,
        result: 'ok',
        request: { commandId: started.commandId },
      });
      track(followSelfCheck(runId, switchId, started.commandId, started.countBefore, selfCheckWaitMs(found.frequency)));
      return { runId, commandId: started.commandId };
    },

    async list(auth: AuthContext, switchId: number): Promise<AcSwitchTasks> {
      const found = await switches.reach(auth, switchId, 'view');
      const zone = found.plantId === null ? null : found.plantTimeZone;
      return { timeZone: zone, tasks: (await repository.list(switchId)).map((t) => toTask(t, zone ?? 'UTC')) };
    },

    async create(auth: AuthContext, switchId: number, body: AcSwitchTaskBody): Promise<{ id: number }> {
      const found = await switches.reach(auth, switchId, 'operate');
      const zone = zoneOf(found);
      const timing: TaskTiming = {
        kind: body.kind,
        date: body.kind === 'single' ? body.date : null,
        time: body.time,
        weekdays: body.kind === 'repeat' ? weekdayBits(body.weekdays) : 0,
        monthDay: body.kind === 'selfcheck' ? body.monthDay : null,
      };
      const next = nextOccurrence(timing, now(), zone);
      if (next === null) throw new ApiError(Code.AC_SWITCH_TASK_PAST);
      const existing = await repository.list(switchId);
      if (existing.length >= AC_SWITCH_TASK_LIMITS.perSwitchMax) throw new ApiError(Code.AC_SWITCH_TASKS_MAX);
      // A single task that has run no longer overlaps anything.
      if (existing.some((t) => (t.kind !== 'single' || t.nextRunAt !== null) && tasksOverlap(timingOf(t), timing)))
        throw new ApiError(Code.AC_SWITCH_TASK_OVERLAP);
      // It will switch a circuit unattended: the password again, as for switching now.
      await deps.confirmPassword(auth, body.password);
      const id = await repository.insert({
        switchId,
        kind: body.kind,
        on: body.kind === 'selfcheck' ? false : body.on,
        date: timing.date,
        time: timing.time,
        weekdays: timing.weekdays,
        monthDay: timing.monthDay,
        enabled: true,
        nextRunAt: new Date(next),
        userId: auth.userId,
      });
      await log.record(auth, {
        action: 'acSwitch.task.add',
        targetType: 'device',
        target: found.sn,
        plantId: found.plantId,
        result: 'ok',
        request: { id, ...timing, on: body.kind === 'selfcheck' ? null : body.on },
      });
      return { id };
    },

    /** Turns a task off or on again; on again it runs from its next occurrence (a single task whose time passed: 4431). */
    async setEnabled(auth: AuthContext, switchId: number, id: number, enabled: boolean): Promise<void> {
      const found = await switches.reach(auth, switchId, 'operate');
      const task = await repository.find(switchId, id);
      if (!task) throw new ApiError(Code.AC_SWITCH_TASK_NOT_FOUND);
      let next: number | null = null;
      if (enabled) {
        next = nextOccurrence(timingOf(task), now(), zoneOf(found));
        if (next === null) throw new ApiError(Code.AC_SWITCH_TASK_PAST);
      }
      await repository.update(id, { enabled, nextRunAt: next === null ? null : new Date(next) });
      await log.record(auth, {
        action: enabled ? 'acSwitch.task.enable' : 'acSwitch.task.disable',
        targetType: 'device',
        target: found.sn,
        plantId: found.plantId,
        result: 'ok',
        request: { id },
      });
    },

    async remove(auth: AuthContext, switchId: number, id: number): Promise<void> {
      const found = await switches.reach(auth, switchId, 'operate');
      if (!(await repository.remove(switchId, id))) throw new ApiError(Code.AC_SWITCH_TASK_NOT_FOUND);
      await log.record(auth, {
        action: 'acSwitch.task.delete',
        targetType: 'device',
        target: found.sn,
        plantId: found.plantId,
        result: 'ok',
        request: { id },
      });
    },

    async history(
      auth: AuthContext,
      switchId: number,
      query: { page: number; size: number },
      language: Language,
    ): Promise<AcSwitchTaskHistory> {
      await switches.reach(auth, switchId, 'view');
      const { rows, total } = await repository.history(switchId, query.page, query.size);
      return {
        total,
        infos: rows.map((r) => {
          const check = r.result as { passed?: unknown; leakageMa?: unknown } | null;
          return {
            id: r.id,
            taskId: r.taskId,
            kind: kindOf(r.kind),
            on: r.on,
            scheduledFor: r.scheduledFor.toISOString(),
            at: r.at.toISOString(),
            outcome: AC_SWITCH_TASK_OUTCOMES.find((o) => o === r.outcome) ?? 'failed',
            code: r.code,
            message: r.code === null ? null : messageOf(language, r.code),
            commandId: r.commandId,
            selfCheck:
              check && typeof check.passed === 'boolean'
                ? { passed: check.passed, leakageMa: typeof check.leakageMa === 'number' ? check.leakageMa : null }
                : null,
          };
        }),
      };
    },

    /**
     * The scheduler's pass: each due occurrence is claimed (moved on to the task's next one) and then run, all
     * due tasks at once. A pass still running when the next starts is not doubled.
     */
    async tick(): Promise<number> {
      if (ticking || now() - startedAt < startGraceMs) return 0;
      ticking = true;
      try {
        if (now() - sweptAt >= ABANDONED_SWEEP_MS) {
          sweptAt = now();
          await repository.abandonRuns(
            new Date(now() - ABANDONED_ON_OFF_MS),
            new Date(now() - selfCheckWaitMs(AC_SWITCH_LIMITS.frequencyMax) - ABANDONED_ON_OFF_MS),
            Code.TIMEOUT,
          );
        }
        let started = 0;
        for (const task of await repository.due(new Date(now()), 50)) {
          const dueAt = task.nextRunAt;
          if (!dueAt) continue;
          // Next after the later of now and this occurrence: a task missed for days runs (or is missed) once.
          // A single task has one occurrence.
          const next =
            task.timeZone === null || task.kind === 'single'
              ? null
              : nextOccurrence(timingOf(task), Math.max(now(), dueAt.getTime()), task.timeZone);
          if (!(await repository.claim(task.id, dueAt, next === null ? null : new Date(next)))) continue;
          // The command waits for the switch's reply: the pass goes on, the run is followed until it settles.
          track(runOne(task, dueAt));
          started++;
        }
        return started;
      } finally {
        ticking = false;
      }
    },

    /**
     * Closing the server: resolves once every run started so far has its outcome; self-checks still waiting for a
     * verdict stop waiting (recorded 4439: the switch's verdict stays in its readings).
     */
    async settle(): Promise<void> {
      stopping = true;
      await Promise.allSettled([...running]);
    },
  };
}
export type SwitchTasksService = ReturnType<typeof createSwitchTasksService>;
