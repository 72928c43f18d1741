import { envelopeSchema } from '@sunward/contracts/envelope';
import { type BackgroundJobList, BackgroundJobListSchema } from '@sunward/contracts/jobs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../lib/envelope.js';
import type { JobInfo, JobRegistry } from './registry.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The job registry (jobs/registry.ts): every periodic task of this process registers with it. */
    jobs: JobRegistry;
  }
}

/** Runs shown per job on the jobs page. */
const RUNS_SHOWN = 20;

/** A job as the jobs page shows it: times as ISO strings, the owner of each run left out. */
function present(job: JobInfo): BackgroundJobList['jobs'][number] {
  return {
    name: job.name,
    scope: job.scope,
    everyMs: job.everyMs,
    nextDueAt: job.nextDue?.toISOString() ?? null,
    running: job.running,
    runs: job.runs.map((run) => ({
      startedAt: run.startedAt.toISOString(),
      durationMs: run.durationMs,
      result: run.result,
      attempt: run.attempt,
      error: run.error,
    })),
  };
}

/** Background jobs (issue 26) for platform administrators: each job's schedule, scope and last runs. */
export const jobsRoutes: FastifyPluginAsyncZod<{ registry: JobRegistry }> = async (app, { registry }) => {
  app.get(
    '/api/v1/system/jobs',
    {
      config: { access: 'system.jobs' },
      schema: {
        tags: ['System'],
        summary: 'Background jobs: scope, interval, next due time and recent runs (time, duration, result)',
        response: { 200: envelopeSchema(BackgroundJobListSchema) },
      },
    },
    async (request) => ok(request, { process: registry.owner, jobs: (await registry.list(RUNS_SHOWN)).map(present) }),
  );
};
