import v8 from 'node:v8';

/**
 * How far V8 lets the JavaScript heap grow past what survived the last full collection before it collects
 * again (`HEAP_GROWTH_PERCENT`; docs/decisions.md "Memory under overload"). V8's own factor is chosen per
 * collection, between 1.1× and 4×, from how fast it collects: under ingest overload it let the heap grow to
 * twice what was reachable, and RSS past 600 MB. A fixed growth of 50 % kept the peak near 540 MB for a few
 * per cent of throughput (docs/benchmarks.md). 0 leaves V8's own heuristic.
 *
 * V8 reads the flag each time it sets the next collection's limit, so setting it once at start is enough.
 */
export function applyHeapGrowth(percent: number, setFlags: (flags: string) => void = v8.setFlagsFromString): boolean {
  if (!Number.isInteger(percent) || percent <= 0) return false;
  setFlags(`--heap-growing-percent=${percent}`);
  return true;
}
