import { describe, expect, it } from 'vitest';
import { nextRun } from './registry.js';

describe('nextRun (the jobs page’s "next due")', () => {
  const hour = 3_600_000;
  const start = Date.parse('2026-11-28T10:00:00Z');

  it('is the due time while it is ahead', () => {
    const due = new Date(start + 2 * hour);
    expect(nextRun(due, start, 6 * hour, start + hour)).toEqual(due);
  });

  it('is this process’s next pass once the due time has passed', () => {
    // A new 6-hour job: due at the start, first pass six hours later.
    expect(nextRun(new Date(start), start, 6 * hour, start + 5 * 60_000).toISOString()).toBe('2026-11-28T16:00:00.000Z');
    // Seven hours in, a pass was missed (the job was held by another process): the next one, at 22:00.
    expect(nextRun(new Date(start), start, 6 * hour, start + 7 * hour).toISOString()).toBe('2026-11-28T22:00:00.000Z');
  });

  it('is the due time when no timer runs here', () => {
    const due = new Date(start - hour);
    expect(nextRun(due, undefined, hour, start)).toEqual(due);
  });
});
