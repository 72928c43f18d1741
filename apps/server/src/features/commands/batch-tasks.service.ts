import {
  type BatchTask,
  type BatchTaskBodySchema,
  type BatchTaskDetail,
  type BatchTaskRow,
  upgradeTargetOfTask,
} from '@sunward/contracts/batch-tasks';
import { Code } from '@sunward/contracts/codes';
import { UPGRADE_TARGETS } from '@sunward/contracts/commands';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import type { z } from 'zod';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { BatchTasksRepository, ItemRecord, TaskRecord } from './batch-tasks.repository.js';
import type { CommandsService, UpgradeImage } from './commands.service.js';

/** Refusals that no later attempt changes: such devices are left out of a task when it is created. */
const NEVER_FITS = new Set<number>([Code.FIRMWARE_INCOMPATIBLE, Code.BATTERY_SLAVE, Code.FIRMWARE_ALREADY_LATEST]);

/** A task on the wire (contracts' BatchTask): times as ISO strings; who created it only by account. */
export function taskOnWire(task: TaskRecord): BatchTask {
  return {
    id: task.id,
    name: task.name,
    type: task.type,
    firmId: task.firmId,
    targetVersion: task.targetVersion,
    status: task.status,
    pausedReason: task.pausedReason,
    runAt: task.runAt?.toISOString() ?? null,
    canaryPercent: task.canaryPercent,
    failureThresholdPercent: task.failureThresholdPercent,
    account: task.account,
    createdAt: task.createdAt.toISOString(),
    finishedAt: task.finishedAt?.toISOString() ?? null,
  };
}

export type BatchTaskInput = Omit<z.output<typeof BatchTaskBodySchema>, 'sns'> & { sns: readonly string[] };

/** The wave an item belongs to: the first ceil(n × canary %) items are the canary wave (0), the rest 1. */
export function wavesOf(sns: readonly string[], canaryPercent: number): { sn: string; wave: number }[] {
  const canary = canaryPercent > 0 ? Math.max(1, Math.ceil((sns.length * canaryPercent) / 100)) : 0;
  return sns.map((sn, i) => ({ sn, wave: i < canary ? 0 : 1 }));
}

/** Whether a finished wave's failures pass the threshold (percent of its items). */
export function waveFailed(
  items: readonly ItemRecord[],
  wave: number,
  thresholdPercent: number,
): { failed: number; total: number; over: boolean } {
  const inWave = items.filter((i) => i.wave === wave);
  const failed = inWave.filter((i) => i.status === 'failed').length;
  return { failed, total: inWave.length, over: inWave.length > 0 && (failed * 100) / inWave.length > thresholdPercent };
}

/**
 * Batch upgrade tasks: created with the password confirmed once, run by a scheduler tick (every second
 * in the server) that starts items wave by wave within a concurrency limit, follows their commands to a
 * final state, pauses a task whose canary wave failed too often, and finishes it. All state is in the
 * database: a restarted server's first tick carries on where the last one stopped.
 */
export function createBatchTasksService(deps: {
  repository: BatchTasksRepository;
  commands: CommandsService;
  firmware: { byId(id: number): Promise<UpgradeImage | undefined> };
  now?: () => number;
  /**
   * After a (re)start no item is started for this long: gateways are reconnecting to a restarted
   * embedded broker, and a command published before a gateway has subscribed again would be lost.
   */
  startGraceMs?: number;
  /** Items of one task upgrading at the same time (BATCH_CONCURRENCY; the company's cap applies on top). */
  concurrency?: number;
}) {
  const { repository, commands } = deps;
  const now = deps.now ?? Date.now;
  const startedAt = now();
  const startGraceMs = deps.startGraceMs ?? 10_000;
  const concurrency = deps.concurrency ?? 20;
  let ticking = false;

  /** The creator as the commands see them (their level on each device is checked per item). */
  const creator = (task: TaskRecord): AuthContext => ({
    userId: task.userId,
    sessionId: `batch-${task.id}`,
    account: task.account,
    roleId: 0,
    roleKey: task.roleKey,
    companyId: task.companyId,
    readOnly: false,
    permissions: new Set(),
    ip: '',
  });

  async function refreshItems(task: TaskRecord): Promise<ItemRecord[]> {
    const items = await repository.items(task.id);
    for (const item of items) {
      if (item.status !== 'running') continue;
      if (item.commandStatus === 'ok') {
        item.status = 'successful';
        await repository.setItem(item.id, 'successful', null, null);
      } else if (item.commandStatus && item.commandStatus !== 'pending' && item.commandStatus !== 'queued') {
        // A gateway upgrade queued until its gateway is online is still under way.
        item.status = 'failed';
        await repository.setItem(item.id, 'failed', null, item.commandMessage ?? item.commandStatus);
      }
    }
    return items;
  }

  async function advance(task: TaskRecord): Promise<void> {
    if (task.status === 'plan') {
      await repository.setStatus(task.id, 'running');
      task.status = 'running';
    }
    const items = await refreshItems(task);
    const open = items.filter((i) => i.status === 'pending' || i.status === 'running');
    if (open.length === 0) {
      await repository.setStatus(task.id, 'done');
      return;
    }
    const wave = Math.min(...open.map((i) => i.wave));
    // Leaving the canary wave: pause when its failures passed the user's threshold (spec: staged rollout).
    // A task the user resumed after such a pause goes on (pausedReason 'resumed').
    if (wave === 1 && items.some((i) => i.wave === 0) && task.pausedReason !== 'resumed') {
      const canary = waveFailed(items, 0, task.failureThresholdPercent);
      if (canary.over && !items.some((i) => i.wave === 1 && i.status !== 'pending')) {
        await repository.setStatus(task.id, 'paused', `canary:${canary.failed}/${canary.total}`);
        return;
      }
    }
    if (now() - startedAt < startGraceMs) return;
    const running = open.filter((i) => i.status === 'running').length;
    const next = open.filter((i) => i.status === 'pending' && i.wave === wave).slice(0, Math.max(0, concurrency - running));
    for (const item of next) {
      try {
        const started = await commands.upgrade(
          creator(task),
          'en',
          item.sn,
          { firmId: task.firmId, confirmed: true },
          upgradeTargetOfTask(task.type),
        );
        await repository.setItem(item.id, 'running', started.commandId, null);
      } catch (error) {
        const code = error instanceof ApiError ? error.responseCode : Code.SERVER_ERROR;
        // The company's per-minute cap clears within a minute: the item waits for a later pass, not fails.
        if (code === Code.COMMAND_CAP_REACHED) return;
        await repository.setItem(item.id, 'failed', null, `code.${code}`);
      }
    }
  }

  return {
    wavesOf,

    async create(auth: AuthContext, language: Language, input: BatchTaskInput): Promise<{ id: number }> {
      await commands.confirmPassword(auth, input.password);
      const image = await deps.firmware.byId(input.firmId);
      const kind = UPGRADE_TARGETS.find((t) => t === image?.type);
      if (!image?.enabled || !kind || image.mode !== 'remote')
        throw new ApiError(
          Code.VALIDATION,
          {},
          { errors: [{ field: 'firmId', message: translate(language, 'commands.firmwareUnavailable') }] },
        );
      const sns = [...new Set(input.sns.map((s) => s.trim()).filter(Boolean))];
      // Compatibility is checked before a device is included: one that cannot ever take this image is skipped
      // with why; one that is merely offline or busy now stays in and is tried when its wave comes.
      const check = await commands.batchUpgradeCheck(auth, language, { sns, firmId: image.id }, kind);
      const skipped = new Map(check.results.filter((r) => NEVER_FITS.has(r.code)).map((r) => [r.sn, `code.${r.code}`]));
      const id = await repository.create(
        {
          name: input.name,
          type: `${kind}_upgrade`,
          firmId: image.id,
          targetVersion: image.swVersion,
          runAt: input.runAt ? new Date(input.runAt) : null,
          status: 'plan',
          canaryPercent: input.canaryPercent,
          failureThresholdPercent: input.failureThresholdPercent,
          userId: auth.userId,
          account: auth.account,
          companyId: auth.companyId,
          roleKey: auth.roleKey,
        },
        wavesOf(sns, input.canaryPercent).map((item) => ({ ...item, skipped: skipped.get(item.sn) })),
      );
      return { id };
    },

    async page(filter: { companyId: number | null; userId: number; all: boolean }, page: number, size: number) {
      const { infos, total } = await repository.page(filter, page, size);
      return { infos: infos.map((row): BatchTaskRow => ({ ...row, ...taskOnWire(row) })), total };
    },

    async detail(auth: AuthContext, id: number): Promise<BatchTaskDetail> {
      const task = await owned(auth, id);
      return { task: taskOnWire(task), items: await repository.items(task.id) };
    },

    async terminate(auth: AuthContext, id: number) {
      const task = await owned(auth, id);
      if (task.status === 'done' || task.status === 'terminated') throw new ApiError(Code.VALIDATION);
      await repository.setStatus(task.id, 'terminated');
    },

    /** A terminated or paused task runs again from where it stopped. */
    async restart(auth: AuthContext, id: number) {
      const task = await owned(auth, id);
      if (task.status !== 'terminated' && task.status !== 'paused') throw new ApiError(Code.VALIDATION);
      // Resuming a paused rollout is the user's decision to go on despite the canary's failures.
      await repository.setStatus(task.id, 'running', task.status === 'paused' ? 'resumed' : task.pausedReason);
    },

    /** Failed items are tried again; the task runs again. */
    async retry(auth: AuthContext, id: number) {
      const task = await owned(auth, id);
      const again = await repository.retryFailed(task.id);
      if (again > 0) await repository.setStatus(task.id, 'running', task.pausedReason);
      return { retried: again };
    },

    /** One scheduler pass over every due or running task; never two at once. */
    async tick(): Promise<void> {
      if (ticking) return;
      ticking = true;
      try {
        for (const task of await repository.active(new Date(now()))) await advance(task);
      } finally {
        ticking = false;
      }
    },
  };

  async function owned(auth: AuthContext, id: number): Promise<TaskRecord> {
    const task = await repository.byId(id);
    const mine =
      task &&
      (auth.roleKey === 'platform_admin' ||
        task.userId === auth.userId ||
        (task.companyId !== null && (await repository.subtree(auth.companyId)).has(task.companyId)));
    if (!task || !mine) throw new ApiError(Code.NOT_FOUND);
    return task;
  }
}

export type BatchTasksService = ReturnType<typeof createBatchTasksService>;
