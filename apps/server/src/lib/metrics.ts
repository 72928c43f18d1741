import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics that code anywhere in the server counts (ingest, commands, jobs),
 * served at /metrics by features/observability. Metrics are per process, as Prometheus expects: one
 * server per process in production. Names follow Prometheus conventions (seconds, *_total).
 */
export const metricsRegistry = new Registry();
// Process metrics: CPU, memory, event-loop lag, open handles, GC (prom-client's defaults).
collectDefaultMetrics({ register: metricsRegistry, prefix: 'sunward_' });

export const ingestMetrics = {
  readings: new Counter({
    name: 'sunward_ingest_readings_total',
    help: 'Readings stored by ingest (rate() gives readings per second)',
    registers: [metricsRegistry],
  }),
  reports: new Counter({
    name: 'sunward_ingest_reports_total',
    help: 'Gateway reports stored (acknowledged)',
    registers: [metricsRegistry],
  }),
  batchSize: new Histogram({
    name: 'sunward_ingest_batch_readings',
    help: 'Readings written per database batch',
    buckets: [1, 5, 10, 50, 100, 250, 500, 1000, 2000, 5000],
    registers: [metricsRegistry],
  }),
  lag: new Histogram({
    name: 'sunward_ingest_lag_seconds',
    help: 'Time from a report reaching the server to its readings being committed (then acknowledged)',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [metricsRegistry],
  }),
  refused: new Counter({
    name: 'sunward_ingest_refused_total',
    help: 'Readings or messages refused by ingest, by reason (unknown_gateway, unknown_device, bad_payload, ...)',
    labelNames: ['reason'] as const,
    registers: [metricsRegistry],
  }),
  gaps: new Counter({
    name: 'sunward_ingest_sequence_gaps_total',
    help: 'Reports missing in gateways\u2019 sequences',
    registers: [metricsRegistry],
  }),
  /** Refusals answered to the gateway on its `…/report/refused` or `…/reply/refused` topic (per gateway: the communication log). */
  answered: new Counter({
    name: 'sunward_gateway_refusals_answered_total',
    help: 'Refused reports and command replies answered to their gateway, by what was refused (report, reply) and reason',
    labelNames: ['of', 'reason'] as const,
    registers: [metricsRegistry],
  }),
};

export const commandMetrics = {
  outcomes: new Counter({
    name: 'sunward_commands_total',
    help: 'Commands to gateways and devices by outcome (sent, succeeded, failed, timeout, ...)',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
  /** Replies no command of this process waited for: handed to their sender, taken from another process, late. */
  replies: new Counter({
    name: 'sunward_command_replies_total',
    help: 'Command replies routed between server processes (relayed, taken) or recorded as late',
    labelNames: ['route'] as const,
    registers: [metricsRegistry],
  }),
  failures: new Counter({
    name: 'sunward_command_failures_total',
    help: 'Failed steps of a command (recording a reply or progress, concluding, sweeping), each also logged with its id',
    labelNames: ['step'] as const,
    registers: [metricsRegistry],
  }),
};

const jobRuns = new Counter({
  name: 'sunward_job_runs_total',
  help: 'Background job runs by job and outcome (ok, failed, lost: its process died holding the lease)',
  labelNames: ['job', 'outcome'] as const,
  registers: [metricsRegistry],
});
const jobDuration = new Histogram({
  name: 'sunward_job_duration_seconds',
  help: 'Background job run time',
  labelNames: ['job'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
  registers: [metricsRegistry],
});

const jobLastDuration = new Gauge({
  name: 'sunward_job_last_duration_seconds',
  help: 'Run time of the last run of each background job this process ran or took over',
  labelNames: ['job'] as const,
  registers: [metricsRegistry],
});
const jobLastRun = new Gauge({
  name: 'sunward_job_last_run_timestamp_seconds',
  help: 'When the last run of each background job this process ran ended (Unix time)',
  labelNames: ['job'] as const,
  registers: [metricsRegistry],
});

/** Counts a background job's run (jobs/registry.ts): runs and failures per job, its duration, and the last one. */
export function recordJobRun(job: string, outcome: 'ok' | 'failed' | 'lost', durationMs: number): void {
  jobRuns.inc({ job, outcome });
  jobDuration.observe({ job }, durationMs / 1000);
  jobLastDuration.set({ job }, durationMs / 1000);
  jobLastRun.set({ job }, Date.now() / 1000);
}
