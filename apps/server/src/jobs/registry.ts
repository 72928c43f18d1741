import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { recordJobRun } from '../lib/metrics.js';
import type { JobResult, JobRunRecord, JobsRepository } from './jobs.repository.js';
import { RUNS_KEPT } from './jobs.repository.js';
import { every } from './timers.js';

/**
 * `cluster`: one run per due time across every process sharing the database (claimed under a lease, retried,
 * recorded in job_runs). `process`: each process runs it for itself (a cache it keeps, memory it frees).
 */
export type JobScope = 'cluster' | 'process';

export interface JobDefinition {
  /** snake_case, unique: the key in background_jobs, /metrics and the jobs page. */
  name: string;
  everyMs: number;
  scope: JobScope;
  run: () => Promise<unknown>;
  /** Also a pass when the registry starts (a cluster job only if its due time has come). */
  atStart?: boolean;
}

export type JobRun = JobRunRecord;

export interface JobInfo {
  name: string;
  scope: JobScope;
  everyMs: number;
  /** Cluster jobs: when the next due time is (from the database). */
  nextDue: Date | null;
  /** A run holds the job now (this process or, for cluster jobs, any). */
  running: boolean;
  runs: JobRun[];
}

/** What one pass of a job did. */
export type PassOutcome = 'ran' | 'not_due' | 'busy';

interface Entry {
  definition: JobDefinition;
  stop: (() => void) | undefined;
  pass: Promise<PassOutcome> | undefined;
  /** Process jobs' runs, newest first (cluster jobs' are in job_runs). */
  runs: JobRun[];
  /** When this process's timer for it started (its passes come every `everyMs` from then). */
  timerSince: number | undefined;
}

/**
 * The job registry: every periodic or deferred task of the server registers here (name, interval, scope) and
 * runs through it. Cluster jobs claim their due time with one UPDATE under a lease (jobs.repository.ts `claim`),
 * renew the lease while running, and are taken over (the run recorded `lost`) when a lease runs out on a dead
 * process; failed runs are tried again up to `maxAttempts` times. See docs/decisions.md for why not pg-boss.
 */
export function createJobRegistry(deps: {
  repository: JobsRepository;
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  settings?: { leaseMs?: number; maxAttempts?: number; retryDelayMs?: number; owner?: string };
}) {
  const { repository, log } = deps;
  const leaseMs = deps.settings?.leaseMs ?? 30_000;
  const maxAttempts = deps.settings?.maxAttempts ?? 4;
  const owner = deps.settings?.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const jobs = new Map<string, Entry>();
  let started = false;

  function errorText(error: unknown): string {
    return (error instanceof Error ? error.message : String(error)).slice(0, 2000);
  }

  async function runProcessJob(entry: Entry): Promise<PassOutcome> {
    const { definition } = entry;
    const startedAt = new Date();
    const t0 = performance.now();
    let result: JobResult = 'ok';
    let error: string | null = null;
    try {
      await definition.run();
    } catch (e) {
      result = 'failed';
      error = errorText(e);
      log.error({ err: e, job: definition.name }, 'background job failed');
    }
    const durationMs = Math.round(performance.now() - t0);
    recordJobRun(definition.name, result, durationMs);
    entry.runs = [{ startedAt, durationMs, result, attempt: 1, error, owner }, ...entry.runs].slice(0, RUNS_KEPT);
    return 'ran';
  }

  /** Claims and runs one due time of a cluster job; another attempt right away (after retryDelayMs) when it fails. */
  async function runClusterJob(entry: Entry): Promise<PassOutcome> {
    const { definition } = entry;
    const { name } = definition;
    let outcome: PassOutcome = 'not_due';
    for (;;) {
      const claim = await repository.claim(name, owner, leaseMs);
      if (!claim) return outcome;
      outcome = 'ran';
      if (claim.lost) {
        const lost = claim.lost;
        const durationMs = Math.max(0, lost.leaseUntil.getTime() - lost.startedAt.getTime());
        log.warn({ job: name, owner: lost.owner }, 'background job run lost with its process; running it again');
        recordJobRun(name, 'lost', durationMs);
        await repository.record(name, {
          startedAt: lost.startedAt,
          durationMs,
          result: 'lost',
          attempt: claim.attempt - 1,
          error: null,
          owner: lost.owner,
        });
      }
      const t0 = performance.now();
      const stopRenewing = every(Math.max(10, Math.floor(leaseMs / 3)), () => {
        repository
          .renew(name, owner, leaseMs)
          .then((held) => held || log.warn({ job: name }, 'background job lease lost while running'))
          .catch((error: unknown) => log.warn({ err: error, job: name }, 'background job lease not renewed'));
      });
      let error: string | null = null;
      try {
        await definition.run();
      } catch (e) {
        error = errorText(e);
        log.error({ err: e, job: name, attempt: claim.attempt }, 'background job failed');
      } finally {
        stopRenewing();
      }
      const durationMs = Math.round(performance.now() - t0);
      const retry = error !== null && claim.attempt < maxAttempts;
      const result: JobResult = error === null ? 'ok' : 'failed';
      // A run that lost its lease meanwhile was recorded `lost` by whoever took it over.
      if (!(await repository.finish(name, owner, claim.startedAt, retry))) return outcome;
      recordJobRun(name, result, durationMs);
      await repository.record(name, { startedAt: claim.startedAt, durationMs, result, attempt: claim.attempt, error, owner });
      if (!retry) return outcome;
      await delay(deps.settings?.retryDelayMs ?? Math.min(definition.everyMs, 1000));
    }
  }

  /** One pass of the job: none while the previous pass in this process is still running. */
  function pass(entry: Entry): Promise<PassOutcome> {
    if (entry.pass) return Promise.resolve('busy');
    const running = (entry.definition.scope === 'cluster' ? runClusterJob(entry) : runProcessJob(entry))
      .catch((error: unknown) => {
        log.error({ err: error, job: entry.definition.name }, 'background job pass failed');
        return 'not_due' as const;
      })
      .finally(() => {
        entry.pass = undefined;
      });
    entry.pass = running;
    return running;
  }

  async function startEntry(entry: Entry): Promise<void> {
    const { definition } = entry;
    if (definition.scope === 'cluster') await repository.ensure(definition.name, definition.everyMs);
    if (!jobs.has(definition.name)) return;
    entry.stop = every(definition.everyMs, () => void pass(entry));
    entry.timerSince = Date.now();
    if (definition.atStart) void pass(entry);
  }

  async function stopEntry(entry: Entry): Promise<void> {
    entry.stop?.();
    entry.stop = undefined;
    entry.timerSince = undefined;
    await entry.pass;
  }

  return {
    /** This process's identity in background_jobs.owner and job_runs.owner. */
    owner,

    /** Adds a job; its timer starts with the registry (or now, if it has started). Returns its removal. */
    async register(definition: JobDefinition): Promise<() => Promise<void>> {
      if (jobs.has(definition.name)) throw new Error(`background job ${definition.name} registered twice`);
      const entry: Entry = { definition, stop: undefined, pass: undefined, runs: [], timerSince: undefined };
      jobs.set(definition.name, entry);
      if (started) await startEntry(entry);
      return async () => {
        if (jobs.get(definition.name) !== entry) return;
        jobs.delete(definition.name);
        await stopEntry(entry);
      };
    },

    /** Starts every registered job's timer (cluster jobs' rows created when missing). */
    async start(): Promise<void> {
      if (started) return;
      started = true;
      for (const entry of jobs.values()) await startEntry(entry);
    },

    /** Stops the timers and waits for passes in flight. */
    async stop(): Promise<void> {
      started = false;
      await Promise.all([...jobs.values()].map(stopEntry));
    },

    /** One pass of a job now (tests; "run now"): `ran`, `not_due` (a cluster job not due or held) or `busy`. */
    async runNow(name: string): Promise<PassOutcome> {
      const entry = jobs.get(name);
      if (!entry) throw new Error(`no background job ${name}`);
      if (entry.definition.scope === 'cluster') await repository.ensure(name, entry.definition.everyMs);
      return pass(entry);
    },

    /** The registered jobs with their recent runs (cluster jobs' from the database, process jobs' from this process). */
    async list(limit = RUNS_KEPT): Promise<JobInfo[]> {
      const entries = [...jobs.values()].sort((a, b) => a.definition.name.localeCompare(b.definition.name));
      const cluster = entries.filter((e) => e.definition.scope === 'cluster').map((e) => e.definition.name);
      const [runs, states] = await Promise.all([repository.recentRuns(cluster, limit), repository.states()]);
      const stateOf = new Map(states.map((s) => [s.name, s]));
      const now = Date.now();
      return entries.map(({ definition, runs: local, pass: inFlight, timerSince }) => {
        const state = stateOf.get(definition.name);
        const isCluster = definition.scope === 'cluster';
        return {
          name: definition.name,
          scope: definition.scope,
          everyMs: definition.everyMs,
          nextDue: isCluster && state ? nextRun(state.nextDue, timerSince, definition.everyMs, now) : null,
          running: isCluster ? Boolean(state?.runStartedAt) : inFlight !== undefined,
          runs: isCluster ? (runs.get(definition.name) ?? []) : local.slice(0, limit),
        };
      });
    },
  };
}

export type JobRegistry = ReturnType<typeof createJobRegistry>;

/**
 * When a cluster job will next run, as far as this process knows: its due time, or, when that has passed, this
 * process's next pass (a job whose due time came while no process was running waits for a timer; a new job's row
 * is due at once, its first pass comes one interval after the start).
 */
export function nextRun(due: Date, timerSince: number | undefined, everyMs: number, now: number): Date {
  if (timerSince === undefined || due.getTime() > now) return due;
  const passes = Math.floor((now - timerSince) / everyMs) + 1;
  return new Date(Math.max(due.getTime(), timerSince + passes * everyMs));
}
