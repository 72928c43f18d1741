import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { type ConnectionLogEntry, createConnectionLog, REFUSED_ROWS_PER_MINUTE } from './connection-log.js';

/** A database that keeps what the log inserts. */
function memoryDb() {
  const rows: ConnectionLogEntry[] = [];
  const db = { insert: () => ({ values: async (batch: ConnectionLogEntry[]) => void rows.push(...batch) }) };
  return { rows, db: db as unknown as Database };
}

const log = pino({ level: 'silent' });

describe('gateway communication log', () => {
  it('keeps a refused report with its reason, one row with a count for the same reason inside a second', async () => {
    const { rows, db } = memoryDb();
    const connections = createConnectionLog(db, log, { flushMs: 60_000 });
    for (let i = 0; i < 5; i++) connections.record({ at: new Date(), gatewaySn: 'GW1', kind: 'refused', reason: 'unknown_device: SN X' });
    await connections.flush();
    expect(rows).toMatchObject([{ gatewaySn: 'GW1', kind: 'refused', reason: 'unknown_device: SN X', count: 5 }]);
  });

  it('lets a gateway refused for a new reason every time write at most its rows a minute, the rest counted in one row', async () => {
    const { rows, db } = memoryDb();
    const connections = createConnectionLog(db, log, { flushMs: 60_000 });
    for (let i = 0; i < 1000; i++)
      connections.record({ at: new Date(), gatewaySn: 'GWBAD', kind: 'refused', reason: `invalid_payload: field ${i}` });
    connections.record({ at: new Date(), gatewaySn: 'GWOK', kind: 'refused', reason: 'stale: too old' });
    await connections.flush();
    const bad = rows.filter((r) => r.gatewaySn === 'GWBAD');
    expect(bad).toHaveLength(REFUSED_ROWS_PER_MINUTE + 1);
    expect(bad.at(-1)).toMatchObject({
      count: 1000 - REFUSED_ROWS_PER_MINUTE,
      reason: expect.stringMatching(/^throttled: .*invalid_payload/),
    });
    expect(bad.reduce((n, r) => n + (r.count ?? 0), 0)).toBe(1000);
    // Another gateway is not held back by it.
    expect(rows.filter((r) => r.gatewaySn === 'GWOK')).toMatchObject([{ reason: 'stale: too old', count: 1 }]);
  });
});
