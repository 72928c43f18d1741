/**
 * Gaps in a gateway's report numbers (`seq`, +1 per report). A gap is a number that has not arrived:
 * a jump forward opens gaps, and a number arriving late (out of order, or resent after a refused batch)
 * fills its gap again. A number seen before (a redelivery) changes nothing. A number far below the
 * highest that is not a known gap is a gateway counting from the start again (reset, replacement).
 * Pure and per process; the database adds the changes up in `gateways.gap_count`.
 */

/** How many open gaps are remembered per gateway (older ones stay counted, they no longer fill). */
const MAX_OPEN_GAPS = 10_000;
/** A number this far below the highest, and not a known gap, is a restart of the gateway's counting. */
const RESTART_DISTANCE = 10_000;

export function createSequenceGaps() {
  const gateways = new Map<number, { highest: number; open: Set<number> }>();
  return {
    /** Records a report's number; returns the change in open gaps (negative when a late one fills them). */
    observe(gatewayId: number, seq: number): number {
      const state = gateways.get(gatewayId);
      if (!state) {
        gateways.set(gatewayId, { highest: seq, open: new Set() });
        return 0;
      }
      if (seq > state.highest) {
        const missing = seq - state.highest - 1;
        // Remember only the newest numbers of a large jump.
        for (let n = Math.max(state.highest + 1, seq - MAX_OPEN_GAPS); n < seq; n++) state.open.add(n);
        while (state.open.size > MAX_OPEN_GAPS) {
          const oldest = state.open.values().next().value;
          if (oldest === undefined) break;
          state.open.delete(oldest);
        }
        state.highest = seq;
        return missing;
      }
      if (state.open.delete(seq)) return -1;
      if (state.highest - seq > RESTART_DISTANCE) gateways.set(gatewayId, { highest: seq, open: new Set() });
      return 0;
    },
  };
}

export type SequenceGaps = ReturnType<typeof createSequenceGaps>;
