import { z } from 'zod';
import { UPGRADE_TARGETS, type UpgradeTarget } from './commands.js';
import { IdSchema } from './ids.js';

/** Spec 02 §5: a batch task's device list has a limit. */
export const BATCH_TASK_SN_LIMIT = 1000;

/** POST /api/v1/tasks: a batch upgrade task (spec 02 §4 Batch task), confirmed with the password. */
export const BatchTaskBodySchema = z.object({
  name: z.string().trim().min(1).max(40),
  firmId: IdSchema,
  /** Device SNs, pasted or imported; at most 1,000 per task. */
  sns: z.array(z.string().min(1).max(64)).min(1).max(BATCH_TASK_SN_LIMIT),
  /** Delayed execution: when to start (ISO time); absent: at once. */
  runAt: z.string().datetime({ offset: true }).optional(),
  /** Staged rollout: this share of the devices goes first (0: no canary). */
  canaryPercent: z.number().int().min(0).max(100).default(0),
  /** The task pauses when more than this share of the canary wave failed. */
  failureThresholdPercent: z.number().int().min(0).max(100).default(100),
  password: z.string().max(200).optional(),
});
export type BatchTaskBody = z.input<typeof BatchTaskBodySchema>;

export const BatchTaskPageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

/** A task as the console shows it (times as ISO strings). */
export const BatchTaskSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** inverter_upgrade, battery_upgrade, gateway_upgrade */
  type: z.string(),
  firmId: z.number(),
  targetVersion: z.string(),
  /** plan (maybe delayed), running, paused (the canary wave failed over the threshold), done, terminated */
  status: z.string(),
  /** Why a paused task paused (`canary:<failed>/<total>`), or `resumed`. */
  pausedReason: z.string().nullable(),
  runAt: z.string().nullable(),
  canaryPercent: z.number(),
  failureThresholdPercent: z.number(),
  /** Who created it. */
  account: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type BatchTask = z.infer<typeof BatchTaskSchema>;

/** GET /api/v1/tasks: tasks with their item counts, newest first. */
export const BatchTaskRowSchema = BatchTaskSchema.extend({
  items: z.number(),
  successful: z.number(),
  failed: z.number(),
  skipped: z.number(),
});
export type BatchTaskRow = z.infer<typeof BatchTaskRowSchema>;
export const BatchTaskPageSchema = z.object({ infos: z.array(BatchTaskRowSchema), total: z.number() });
export type BatchTaskPage = z.infer<typeof BatchTaskPageSchema>;

/** One device of a task: its wave (0 canary, 1 the rest) and its result. */
export const BatchTaskItemSchema = z.object({
  id: z.number(),
  sn: z.string(),
  wave: z.number(),
  /** pending, running (its command is out), successful, failed, skipped (never fits the image) */
  status: z.string(),
  commandId: z.number().nullable(),
  /** Why it failed or was skipped (`code.<n>` or the device's words). */
  message: z.string().nullable(),
  commandStatus: z.string().nullable(),
  commandMessage: z.string().nullable(),
});
export type BatchTaskItem = z.infer<typeof BatchTaskItemSchema>;

/** GET /api/v1/tasks/:id */
export const BatchTaskDetailSchema = z.object({ task: BatchTaskSchema, items: z.array(BatchTaskItemSchema) });
export type BatchTaskDetail = z.infer<typeof BatchTaskDetailSchema>;

export const BatchTaskCreatedSchema = z.object({ id: z.number() });
/** POST /api/v1/tasks/:id/retry: how many failed items run again. */
export const BatchTaskRetriedSchema = z.object({ retried: z.number() });

/** The upgrade target of a task type (inverter_upgrade, battery_upgrade, gateway_upgrade). */
export function upgradeTargetOfTask(type: string): UpgradeTarget {
  return UPGRADE_TARGETS.find((t) => `${t}_upgrade` === type) ?? 'inverter';
}
