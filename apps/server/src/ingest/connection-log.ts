import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import { gatewayConnectionLog } from '../db/schema.js';

/*
 * Gateway communication history (issue 21, the logger family's communication log): connects, disconnects
 * with the session length and reason, and refused reports with their reason. Ingest must not wait on it:
 * entries go to a buffer written in one insert a second (or at 500 entries); refused reports of one gateway
 * and reason inside that second become one row with a count. Past 20,000 entries waiting (a database that
 * does not answer) new ones are dropped and counted in a WARN line, never held in memory without bound.
 */

export type ConnectionLogKind = 'connect' | 'disconnect' | 'refused';

export interface ConnectionLogEntry {
  at: Date;
  gatewaySn: string;
  kind: ConnectionLogKind;
  address?: string | null;
  reason?: string | null;
  sessionSeconds?: number | null;
  count?: number | null;
}

export interface ConnectionLog {
  record(entry: ConnectionLogEntry): void;
  /** Writes what waits now (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const FLUSH_MS = 1000;
const FLUSH_AT = 500;
const MAX_WAITING = 20_000;

export function createConnectionLog(db: Database, log: FastifyBaseLogger, options: { flushMs?: number } = {}): ConnectionLog {
  let waiting: ConnectionLogEntry[] = [];
  const refusedIndex = new Map<string, ConnectionLogEntry>();
  let dropped = 0;
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  function write(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = [];
    refusedIndex.clear();
    if (dropped > 0) {
      log.warn({ event: 'connection_log_dropped', dropped }, 'gateway connection log entries dropped: the database is not keeping up');
      dropped = 0;
    }
    if (batch.length === 0) return writing;
    writing = writing
      .then(() =>
        db.insert(gatewayConnectionLog).values(
          batch.map((e) => ({
            at: e.at,
            gatewaySn: e.gatewaySn,
            kind: e.kind,
            address: e.address ?? null,
            reason: e.reason ?? null,
            sessionSeconds: e.sessionSeconds ?? null,
            count: e.count ?? null,
          })),
        ),
      )
      .then(
        () => undefined,
        (error: unknown) => log.error({ err: error, entries: batch.length }, 'gateway connection log not written'),
      );
    return writing;
  }

  return {
    record(entry) {
      if (entry.kind === 'refused') {
        const key = `${entry.gatewaySn}|${entry.reason ?? ''}`;
        const same = refusedIndex.get(key);
        if (same) {
          same.count = (same.count ?? 1) + (entry.count ?? 1);
          return;
        }
        entry.count = entry.count ?? 1;
        refusedIndex.set(key, entry);
      }
      if (waiting.length >= MAX_WAITING) {
        dropped++;
        return;
      }
      waiting.push(entry);
      if (waiting.length >= FLUSH_AT) void write();
      else if (!timer) {
        timer = setTimeout(() => void write(), options.flushMs ?? FLUSH_MS);
        timer.unref();
      }
    },
    flush: () => write(),
    close: () => write(),
  };
}
