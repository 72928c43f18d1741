import { z } from 'zod';

/** How a background job's run ended: `lost` when its process died holding the lease (another took it over). */
export const JOB_RESULTS = ['ok', 'failed', 'lost'] as const;
export type JobResult = (typeof JOB_RESULTS)[number];

/** `cluster`: once per due time across all server processes; `process`: each process for itself. */
export const JOB_SCOPES = ['cluster', 'process'] as const;

export const JobRunSchema = z.object({
  startedAt: z.string(),
  durationMs: z.number().int(),
  result: z.enum(JOB_RESULTS),
  /** Which try of its due time (failed runs are tried again). */
  attempt: z.number().int(),
  error: z.string().nullable(),
});
export type JobRun = z.infer<typeof JobRunSchema>;

/** One background job of GET /api/v1/system/jobs, newest runs first. */
export const BackgroundJobSchema = z.object({
  name: z.string(),
  scope: z.enum(JOB_SCOPES),
  everyMs: z.number().int(),
  /** Cluster jobs: the next due time; null for process jobs. */
  nextDueAt: z.string().nullable(),
  running: z.boolean(),
  runs: z.array(JobRunSchema),
});
export type BackgroundJob = z.infer<typeof BackgroundJobSchema>;

export const BackgroundJobListSchema = z.object({
  /** The server process that answered (its process jobs' runs are its own). */
  process: z.string(),
  jobs: z.array(BackgroundJobSchema),
});
export type BackgroundJobList = z.infer<typeof BackgroundJobListSchema>;
