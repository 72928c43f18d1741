import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { computed, nullable, sqlRow, sqlRows } from '../db/rows.js';
import { backgroundJobs, jobRuns } from '../db/schema.js';

/** How a run of a job ended. */
export type JobResult = 'ok' | 'failed' | 'lost';
const RESULTS = ['ok', 'failed', 'lost'] as const;

/** Runs kept per job. */
export const RUNS_KEPT = 50;

export interface JobRunRecord {
  startedAt: Date;
  durationMs: number;
  result: JobResult;
  attempt: number;
  error: string | null;
  owner: string;
}

/** What a claim answers: the attempt this run is, and the run that lost its process (if the lease ran out on one). */
export interface Claim {
  startedAt: Date;
  attempt: number;
  lost: { owner: string; startedAt: Date; leaseUntil: Date } | null;
}

/** SQL of the job registry (registry.ts): due times claimed under a lease, runs recorded. */
export function createJobsRepository(db: Database) {
  const runColumns = {
    startedAt: jobRuns.startedAt,
    durationMs: jobRuns.durationMs,
    result: computed.oneOf(RESULTS),
    attempt: jobRuns.attempt,
    error: jobRuns.error,
    owner: jobRuns.owner,
  };

  async function record(job: string, run: JobRunRecord): Promise<void> {
    await db.insert(jobRuns).values({ job, ...run });
    // Only the newest RUNS_KEPT per job stay.
    await db.execute(
      sql`delete from job_runs where job = ${job} and id < (select min(id) from (select id from job_runs where job = ${job} order by id desc limit ${RUNS_KEPT}) newest)`,
    );
  }

  return {
    /** The job's row, due now when new; a changed interval applies from the next due time. */
    async ensure(name: string, everyMs: number): Promise<void> {
      await db
        .insert(backgroundJobs)
        .values({ name, everyMs, nextDue: sql`now()` })
        .onConflictDoUpdate({ target: backgroundJobs.name, set: { everyMs } });
    },

    /**
     * Claims the job's due time for `owner` when it is due and no live lease holds it: one UPDATE, so of N processes
     * asking at once exactly one gets it. The subquery (`for update`) reads the row as it was, to tell a run whose
     * lease ran out (its process died) from a free due time.
     */
    async claim(name: string, owner: string, leaseMs: number): Promise<Claim | undefined> {
      const row = await sqlRow(
        db,
        {
          startedAt: computed.date,
          attempt: computed.number,
          lostOwner: nullable(computed.text),
          lostStartedAt: nullable(computed.date),
          lostLeaseUntil: nullable(computed.date),
        },
        sql`update background_jobs j
              set lease_until = now() + ${leaseMs} * interval '1 millisecond', owner = ${owner},
                  run_started_at = date_trunc('milliseconds', now()), attempt = j.attempt + 1
             from (select name, owner, run_started_at, lease_until from background_jobs where name = ${name} for update) old
            where j.name = old.name and j.next_due <= now() and (j.lease_until is null or j.lease_until < now())
        returning j.run_started_at as "startedAt", j.attempt as "attempt",
                  case when old.run_started_at is null then null else old.owner end as "lostOwner",
                  old.run_started_at as "lostStartedAt", old.lease_until as "lostLeaseUntil"`,
      );
      if (!row) return undefined;
      const lost =
        row.lostOwner !== null && row.lostStartedAt && row.lostLeaseUntil
          ? { owner: row.lostOwner, startedAt: row.lostStartedAt, leaseUntil: row.lostLeaseUntil }
          : null;
      return { startedAt: row.startedAt, attempt: row.attempt, lost };
    },

    /** Extends the lease of a run this owner still holds; false when it no longer does. */
    async renew(name: string, owner: string, leaseMs: number): Promise<boolean> {
      const rows = await sqlRows(
        db,
        { name: backgroundJobs.name },
        sql`update background_jobs set lease_until = now() + ${leaseMs} * interval '1 millisecond'
             where name = ${name} and owner = ${owner} and run_started_at is not null returning name`,
      );
      return rows.length > 0;
    },

    /**
     * Ends a run this owner holds: the next due time one interval after this one (now, if that has passed) when it
     * succeeded or used its last attempt; still due (another attempt) otherwise. False when the lease was lost.
     */
    async finish(name: string, owner: string, startedAt: Date, retry: boolean): Promise<boolean> {
      const rows = await sqlRows(
        db,
        { name: backgroundJobs.name },
        sql`update background_jobs
               set lease_until = null, run_started_at = null, owner = null,
                   attempt = case when ${retry} then attempt else 0 end,
                   next_due = case when ${retry} then next_due
                                   else greatest(next_due + every_ms * interval '1 millisecond', now()) end
             where name = ${name} and owner = ${owner} and run_started_at = ${startedAt.toISOString()}::timestamptz
         returning name`,
      );
      return rows.length > 0;
    },

    record,

    /** The newest runs of each named job, newest first. */
    async recentRuns(names: readonly string[], limit: number): Promise<Map<string, JobRunRecord[]>> {
      const byJob = new Map<string, JobRunRecord[]>();
      if (names.length === 0) return byJob;
      const rows = await sqlRows(
        db,
        { job: jobRuns.job, ...runColumns },
        sql`select r.job, r.started_at as "startedAt", r.duration_ms as "durationMs", r.result, r.attempt, r.error, r.owner
              from unnest(${sql.param([...names])}::text[]) n(name)
              cross join lateral (select * from job_runs where job = n.name order by id desc limit ${limit}) r
             order by r.job, r.id desc`,
      );
      for (const { job, ...run } of rows) byJob.set(job, [...(byJob.get(job) ?? []), run]);
      return byJob;
    },

    /** The jobs' rows (next due time, who runs it now). */
    async states(): Promise<{ name: string; nextDue: Date; owner: string | null; runStartedAt: Date | null }[]> {
      return db
        .select({
          name: backgroundJobs.name,
          nextDue: backgroundJobs.nextDue,
          owner: backgroundJobs.owner,
          runStartedAt: backgroundJobs.runStartedAt,
        })
        .from(backgroundJobs);
    },
  };
}

export type JobsRepository = ReturnType<typeof createJobsRepository>;
