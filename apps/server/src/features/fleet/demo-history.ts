import type { Config } from '../../config.js';
import type { IngestSettings } from '../../ingest/ingest-pipeline.js';

const DAY_MS = 86_400_000;

/**
 * How old a report ingest still stores: MAX_REPORT_AGE_DAYS (default 31). The demo fleet's gateways send
 * their history (SIMULATOR_HISTORY_DAYS) as store-and-forward reports with past timestamps, so when the
 * setting is not given and the simulator is on, config makes it the history's days + 2 if that is longer.
 */
export function demoHistoryIngestSettings(config: Config): Partial<IngestSettings> {
  return { maxAgeMs: config.maxReportAgeDays * DAY_MS };
}
