import { Code } from '@sunward/contracts/codes';
import type { BackgroundJobList } from '@sunward/contracts/jobs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computed, sqlRows } from '../db/rows.js';
import { apiClient, signedInCast, signedInUser } from '../test/api.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { createJobsRepository } from './jobs.repository.js';
import { createJobRegistry, type JobRegistry } from './registry.js';

let server: TestServer;
const registries: JobRegistry[] = [];
const { get } = apiClient(() => server.app);

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await Promise.all(registries.map((r) => r.stop()));
  await server?.close();
});

const quiet = { error: () => undefined, warn: () => undefined };

/** A second (third, …) server process's registry on the test server's database. */
function registry(owner: string, settings: { leaseMs?: number } = {}): JobRegistry {
  const created = createJobRegistry({
    repository: createJobsRepository(server.database.db),
    log: quiet,
    settings: { owner, retryDelayMs: 0, ...settings },
  });
  registries.push(created);
  return created;
}

async function runsOf(job: string) {
  return sqlRows(
    server.database.db,
    { owner: computed.text, result: computed.text, attempt: computed.number, error: computed.text },
    sql`select owner, result, attempt, coalesce(error, '') as error from job_runs where job = ${job} order by id`,
  );
}

/** The job's next due time moved to now: its following due time has come. */
async function dueNow(job: string) {
  await server.database.db.execute(sql`update background_jobs set next_due = now() where name = ${job}`);
}

describe('job registry', () => {
  it('runs a cluster job once per due time across two processes sharing the database', async () => {
    const a = registry('process-a');
    const b = registry('process-b');
    let runs = 0;
    const job = { name: 'test_once', everyMs: 3_600_000, scope: 'cluster' as const, run: async () => void runs++ };
    await a.register(job);
    await b.register(job);
    for (let due = 1; due <= 3; due++) {
      if (due > 1) await dueNow('test_once');
      const outcomes = await Promise.all([a.runNow('test_once'), b.runNow('test_once'), a.runNow('test_once'), b.runNow('test_once')]);
      expect(outcomes.filter((o) => o === 'ran')).toHaveLength(1);
      expect(runs).toBe(due);
    }
    expect((await runsOf('test_once')).map((r) => r.result)).toEqual(['ok', 'ok', 'ok']);
  });

  it('never runs a cluster job twice at once when both processes\u2019 timers fire', async () => {
    const a = registry('timer-a');
    const b = registry('timer-b');
    let running = 0;
    let most = 0;
    let runs = 0;
    const job = {
      name: 'test_timers',
      everyMs: 20,
      scope: 'cluster' as const,
      run: async () => {
        running++;
        most = Math.max(most, running);
        runs++;
        await new Promise((resolve) => setImmediate(resolve));
        running--;
      },
    };
    await a.register(job);
    await b.register(job);
    await Promise.all([a.start(), b.start()]);
    await expect.poll(() => runs, { timeout: 10_000 }).toBeGreaterThanOrEqual(10);
    await Promise.all([a.stop(), b.stop()]);
    expect(most).toBe(1);
    // Every run is recorded once, by the process that ran it.
    const recorded = await runsOf('test_timers');
    expect(recorded).toHaveLength(Math.min(runs, 50));
    expect(new Set(recorded.map((r) => r.owner)).size).toBeGreaterThanOrEqual(1);
  });

  it('takes over a run whose process died holding the lease and records it lost', async () => {
    const survivor = registry('survivor');
    let runs = 0;
    await survivor.register({ name: 'test_lost', everyMs: 3_600_000, scope: 'cluster', run: async () => void runs++ });
    const repository = createJobsRepository(server.database.db);
    await repository.ensure('test_lost', 3_600_000);
    // The dead process claimed the due time with a short lease and never finished (nor renewed it).
    expect(await repository.claim('test_lost', 'dead-process', 50)).toBeDefined();
    expect(await survivor.runNow('test_lost')).toBe('not_due');
    await expect.poll(() => survivor.runNow('test_lost'), { timeout: 5000, interval: 20 }).toBe('ran');
    expect(runs).toBe(1);
    expect((await runsOf('test_lost')).map(({ owner, result, attempt }) => ({ owner, result, attempt }))).toEqual([
      { owner: 'dead-process', result: 'lost', attempt: 1 },
      { owner: 'survivor', result: 'ok', attempt: 2 },
    ]);
    // The due time is done: the next one is an interval later.
    expect(await survivor.runNow('test_lost')).toBe('not_due');
  });

  it('tries a failing job again, then records it failed and waits for the next due time', async () => {
    const a = registry('failing');
    let tries = 0;
    await a.register({
      name: 'test_failing',
      everyMs: 3_600_000,
      scope: 'cluster',
      run: async () => {
        tries++;
        throw new Error(`broken ${tries}`);
      },
    });
    expect(await a.runNow('test_failing')).toBe('ran');
    expect(tries).toBe(4);
    const recorded = await runsOf('test_failing');
    expect(recorded.map((r) => [r.result, r.attempt, r.error])).toEqual([
      ['failed', 1, 'broken 1'],
      ['failed', 2, 'broken 2'],
      ['failed', 3, 'broken 3'],
      ['failed', 4, 'broken 4'],
    ]);
    expect(await a.runNow('test_failing')).toBe('not_due');
  });

  it('counts attempts per due time: a retry that succeeds ends it, the next due time starts at 1', async () => {
    const a = registry('flaky');
    let tries = 0;
    await a.register({
      name: 'test_flaky',
      everyMs: 3_600_000,
      scope: 'cluster',
      run: async () => {
        tries++;
        if (tries === 1) throw new Error('once');
      },
    });
    expect(await a.runNow('test_flaky')).toBe('ran');
    await dueNow('test_flaky');
    expect(await a.runNow('test_flaky')).toBe('ran');
    expect((await runsOf('test_flaky')).map((r) => [r.result, r.attempt])).toEqual([
      ['failed', 1],
      ['ok', 2],
      ['ok', 1],
    ]);
  });

  it('runs a process job in every process, each listing its own runs', async () => {
    const a = registry('local-a');
    const b = registry('local-b');
    const ran: string[] = [];
    await a.register({ name: 'test_local', everyMs: 3_600_000, scope: 'process', run: async () => void ran.push('a') });
    await b.register({ name: 'test_local', everyMs: 3_600_000, scope: 'process', run: async () => void ran.push('b') });
    await Promise.all([a.runNow('test_local'), b.runNow('test_local')]);
    expect(ran.sort()).toEqual(['a', 'b']);
    for (const r of [a, b]) {
      const local = (await r.list()).find((j) => j.name === 'test_local');
      expect(local?.scope).toBe('process');
      expect(local?.runs.map((run) => run.result)).toEqual(['ok']);
    }
  });

  it('keeps the newest 50 runs of a job', async () => {
    const a = registry('many');
    await a.register({ name: 'test_many', everyMs: 3_600_000, scope: 'cluster', run: async () => undefined });
    for (let i = 0; i < 55; i++) {
      await dueNow('test_many');
      expect(await a.runNow('test_many')).toBe('ran');
    }
    expect(await runsOf('test_many')).toHaveLength(50);
  });
});

describe('GET /api/v1/system/jobs', () => {
  it('lists the server\u2019s jobs with their runs for the platform administrator only', async () => {
    const { admin, companyAdmin } = await signedInCast(server, 'Jobs Co');
    const owner = (await signedInUser(server, 'owner')).token;
    await server.app.jobs.runNow('housekeeping');
    const body = await get<BackgroundJobList>('/api/v1/system/jobs', admin);
    expect(body.code).toBe(Code.OK);
    const byName = new Map(body.data.jobs.map((j) => [j.name, j]));
    for (const name of [
      'batch_tasks',
      'orphaned_commands',
      'offline_sweep',
      'retention',
      'download_sweep',
      'report_schedules',
      'housekeeping',
    ])
      expect(byName.get(name)?.scope).toBe('cluster');
    for (const name of ['event_texts', 'protocol_maps', 'plant_day_refresh']) expect(byName.get(name)?.scope).toBe('process');
    expect(byName.get('housekeeping')?.runs[0]).toMatchObject({ result: 'ok', attempt: 1 });
    expect(byName.get('batch_tasks')?.everyMs).toBe(1000);
    for (const token of [companyAdmin, owner]) expect(await get('/api/v1/system/jobs', token)).toMatchObject({ code: Code.NO_PERMISSION });
  });

  it('counts runs, failures and the last duration per job in /metrics', async () => {
    await server.app.jobs.runNow('event_texts');
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(/sunward_job_runs_total\{job="event_texts",outcome="ok"\} [1-9]/);
    expect(text).toMatch(/sunward_job_runs_total\{job="test_failing",outcome="failed"\} 4/);
    expect(text).toMatch(/sunward_job_last_duration_seconds\{job="event_texts"\} /);
  });
});
