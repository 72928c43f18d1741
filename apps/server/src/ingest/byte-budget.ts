/**
 * Backpressure on bytes (issue 26 part 7): the payload bytes of reports accepted by ingest and not yet committed
 * stay within a budget. A report that does not fit waits, in arrival order, before anything is parsed: while it
 * waits the broker reads no further packet from its connection (aedes reads a connection's next chunk only when
 * every packet of the last one is handled; an external broker's consumer handles one message at a time), so
 * memory stays bounded however much is offered, and no report is acknowledged before it is stored.
 *
 * A report larger than the whole budget is let in alone (nothing else pending), so it cannot wait for ever.
 */
export interface ByteBudget {
  /** Takes `bytes` from the budget: undefined when granted at once, else a promise that resolves when granted. */
  acquire(bytes: number): Promise<void> | undefined;
  /** Gives back what an acquire took (once the report is stored, refused or failed). */
  release(bytes: number): void;
  /** Bytes granted and not yet released, reports waiting to be let in, and the most ever granted at once. */
  state(): { bytes: number; waiting: number; waitingBytes: number; peakBytes: number; limit: number };
}

/**
 * `onChange` is called when a report starts waiting and after bytes come back (and waiting reports were let in):
 * the broker's read gate follows it (read-gate.ts).
 */
export function createByteBudget(limit: number, onChange?: () => void): ByteBudget {
  if (!(limit > 0)) throw new RangeError(`byte budget must be positive, got ${limit}`);
  let used = 0;
  let peak = 0;
  let waitingBytes = 0;
  // A plain array used as a queue with a moving head: shift() on thousands of waiters is O(n) each.
  let waiting: { bytes: number; grant: () => void }[] = [];
  let head = 0;

  const fits = (bytes: number) => used === 0 || used + bytes <= limit;
  const take = (bytes: number) => {
    used += bytes;
    if (used > peak) peak = used;
  };

  function admit() {
    while (head < waiting.length) {
      const next = waiting[head];
      if (!next || !fits(next.bytes)) break;
      head++;
      waitingBytes -= next.bytes;
      take(next.bytes);
      next.grant();
    }
    if (head > 1024 && head * 2 > waiting.length) {
      waiting = waiting.slice(head);
      head = 0;
    }
  }

  return {
    acquire(bytes) {
      // First come, first served: nobody passes a report that waits (a gateway's reports stay in order).
      if (head === waiting.length && fits(bytes)) {
        take(bytes);
        return undefined;
      }
      waitingBytes += bytes;
      const granted = new Promise<void>((grant) => waiting.push({ bytes, grant }));
      onChange?.();
      return granted;
    },
    release(bytes) {
      used = Math.max(0, used - bytes);
      admit();
      onChange?.();
    },
    state: () => ({ bytes: used, waiting: waiting.length - head, waitingBytes, peakBytes: peak, limit }),
  };
}
