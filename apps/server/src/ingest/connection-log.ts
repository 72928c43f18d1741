import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import { gatewayConnectionLog } from '../db/schema.js';

/*
 * Gateway communication history (issue 21, the logger family's communication log): connects, disconnects
 * with the session length and reason, and refused reports with their reason. Ingest must not wait on it:
 * entries go to a buffer written in one insert a second (or at 500 entries); refused reports of one gateway
 * and reason inside that second become one row with a count. A gateway refused for many different reasons
 * (a misbehaving one sending a new error each time) writes at most REFUSED_ROWS_PER_MINUTE rows a minute;
 * the rest of its minute becomes one "throttled" row with their count. Past 20,000 entries waiting (a
 * database that does not answer) new ones are dropped and counted in a WARN line, never held in memory
 * without bound.
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
/** Refused-report rows one gateway may write per minute before the rest are counted in one row. */
export const REFUSED_ROWS_PER_MINUTE = 20;
const MINUTE_MS = 60_000;

/** The reason's code without its detail ("invalid_payload: Expected number…" -> "invalid_payload"). */
const reasonCode = (reason: string | null | undefined) => (reason ?? '').split(':')[0]?.trim() || 'refused';

export function createConnectionLog(db: Database, log: FastifyBaseLogger, options: { flushMs?: number } = {}): ConnectionLog {
  let waiting: ConnectionLogEntry[] = [];
  const refusedIndex = new Map<string, ConnectionLogEntry>();
  let dropped = 0;
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  /** Per gateway: the minute under way, rows written in it, and the one row counting what was held back. */
  const minutes = new Map<string, { start: number; rows: number; held: ConnectionLogEntry | null }>();

  /** Ends the minutes that are over (or all): their held-back counts join the batch. */
  function closeMinutes(all: boolean) {
    const at = Date.now();
    for (const [sn, minute] of minutes) {
      if (!all && at - minute.start < MINUTE_MS) continue;
      if (minute.held) waiting.push(minute.held);
      minutes.delete(sn);
    }
  }

  /** False when the gateway has had its rows this minute: the entry is then counted in the held-back row. */
  function allowRefused(entry: ConnectionLogEntry): boolean {
    const at = entry.at.getTime();
    let minute = minutes.get(entry.gatewaySn);
    if (minute && at - minute.start >= MINUTE_MS) {
      if (minute.held) waiting.push(minute.held);
      minute = undefined;
    }
    if (!minute) {
      minute = { start: at, rows: 0, held: null };
      minutes.set(entry.gatewaySn, minute);
    }
    if (minute.rows < REFUSED_ROWS_PER_MINUTE) {
      minute.rows++;
      return true;
    }
    if (minute.held) minute.held.count = (minute.held.count ?? 0) + (entry.count ?? 1);
    else
      minute.held = {
        at: entry.at,
        gatewaySn: entry.gatewaySn,
        kind: 'refused',
        reason: `throttled: more refused reports of this gateway in the minute (first held back: ${reasonCode(entry.reason)})`,
        count: entry.count ?? 1,
      };
    return false;
  }

  function write(all = false): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    closeMinutes(all);
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
        if (!allowRefused(entry)) return;
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
    flush: () => write(true),
    close: () => write(true),
  };
}
