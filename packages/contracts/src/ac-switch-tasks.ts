import { z } from 'zod';

/**
 * Timed tasks of a smart AC switch (issue 22 part 1, spec 01 §1 "tasks single or repeat"): switch on or off once
 * at a plant-local date and time, or on chosen weekdays at a time, in the plant's time zone; and the monthly
 * self-check (a leakage test on a day of the month). The server's scheduler runs each occurrence once and keeps
 * a history of what each did.
 */
export const AC_SWITCH_TASK_LIMITS = {
  /** Tasks per switch, self-check included. */
  perSwitchMax: 20,
  /** A self-check's day of the month: 1–28, so every month has it. */
  monthDayMax: 28,
  /**
   * An occurrence the server missed (it was down) still runs once when it comes back within this many minutes;
   * later, it is recorded as missed and the task moves on to its next occurrence.
   */
  graceMinutes: 10,
  historyPageSizeMax: 100,
} as const;

export const AC_SWITCH_TASK_KINDS = ['single', 'repeat', 'selfcheck'] as const;
export type AcSwitchTaskKind = (typeof AC_SWITCH_TASK_KINDS)[number];

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM');
const date = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'YYYY-MM-DD');
/** ISO weekdays: 1 Monday … 7 Sunday. */
const weekday = z.number().int().min(1).max(7);

export const AcSwitchTaskBodySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('single'), on: z.boolean(), date, time, password: z.string().max(128).optional() }),
  z.object({
    kind: z.literal('repeat'),
    on: z.boolean(),
    weekdays: z.array(weekday).min(1).max(7),
    time,
    password: z.string().max(128).optional(),
  }),
  z.object({
    kind: z.literal('selfcheck'),
    monthDay: z.number().int().min(1).max(AC_SWITCH_TASK_LIMITS.monthDayMax),
    time,
    password: z.string().max(128).optional(),
  }),
]);
export type AcSwitchTaskBody = z.infer<typeof AcSwitchTaskBodySchema>;

export const AcSwitchTaskEnableBodySchema = z.object({ enabled: z.boolean() });

export const AcSwitchTaskSchema = z.object({
  id: z.number(),
  switchId: z.number(),
  kind: z.enum(AC_SWITCH_TASK_KINDS),
  /** Switch on or off (a self-check leaves the switch as it was: false). */
  on: z.boolean(),
  date: z.string().nullable(),
  time: z.string(),
  weekdays: z.array(z.number()),
  monthDay: z.number().nullable(),
  enabled: z.boolean(),
  /** The next run (ISO instant), null once a single task has run or while the task is off. */
  nextRunAt: z.string().nullable(),
  /** The plant's time zone the date and time are read in. */
  timeZone: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type AcSwitchTask = z.infer<typeof AcSwitchTaskSchema>;
/** A switch's tasks, with the time zone of its plant (null while the switch is in no plant: no tasks then). */
export const AcSwitchTasksSchema = z.object({ timeZone: z.string().nullable(), tasks: z.array(AcSwitchTaskSchema) });
export type AcSwitchTasks = z.infer<typeof AcSwitchTasksSchema>;

/** `running`: under way, an on/off command awaiting the switch's reply or a self-check awaiting its verdict. */
export const AC_SWITCH_TASK_OUTCOMES = ['done', 'refused', 'failed', 'missed', 'running'] as const;
export type AcSwitchTaskOutcome = (typeof AC_SWITCH_TASK_OUTCOMES)[number];

export const AcSwitchTaskRunSchema = z.object({
  id: z.number(),
  taskId: z.number().nullable(),
  kind: z.enum(AC_SWITCH_TASK_KINDS),
  on: z.boolean(),
  scheduledFor: z.string(),
  at: z.string(),
  outcome: z.enum(AC_SWITCH_TASK_OUTCOMES),
  code: z.number().nullable(),
  /** Why, in the caller's language, for a refusal, a failure or a miss. */
  message: z.string().nullable(),
  commandId: z.number().nullable(),
  /** A self-check's verdict and the leakage current it measured (the switch's own; outcome done either way). */
  selfCheck: z.object({ passed: z.boolean(), leakageMa: z.number().nullable() }).nullable(),
});
export type AcSwitchTaskRun = z.infer<typeof AcSwitchTaskRunSchema>;

export const AcSwitchTaskHistoryQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(AC_SWITCH_TASK_LIMITS.historyPageSizeMax).default(10),
});
export const AcSwitchTaskHistorySchema = z.object({ infos: z.array(AcSwitchTaskRunSchema), total: z.number() });
export type AcSwitchTaskHistory = z.infer<typeof AcSwitchTaskHistorySchema>;

/** "Self-check now" (issue 22): the switch cuts the circuit for 10 s, so the password again. */
export const AcSwitchSelfCheckBodySchema = z.object({ password: z.string().max(128).optional() });
/** The switch confirmed the start; the verdict lands in the history's run `runId` once the switch reports it. */
export const AcSwitchSelfCheckStartedSchema = z.object({ runId: z.number(), commandId: z.number() });
export type AcSwitchSelfCheckStarted = z.infer<typeof AcSwitchSelfCheckStartedSchema>;
