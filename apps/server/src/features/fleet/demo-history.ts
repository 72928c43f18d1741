import type { Config } from '../../config.js';
import type { IngestSettings } from '../../ingest/ingest-pipeline.js';

const DAY_MS = 86_400_000;

/**
 * The demo fleet's gateways send their history (SIMULATOR_HISTORY_DAYS) as store-and-forward reports
 * with past timestamps: with the simulator on, ingest accepts readings that old (default limit 31 days).
 */
export function demoHistoryIngestSettings(config: Config): Partial<IngestSettings> {
  const days = config.simulator?.historyDays ?? 0;
  return days > 30 ? { maxAgeMs: (days + 2) * DAY_MS } : {};
}
