/**
 * The one place in the server that starts repeating timers (a test, timers-only-here.test.ts, fails on a
 * `setInterval` anywhere else). Named periodic work registers with the job registry (registry.ts), which runs its
 * passes through `every`; timers that belong to one connection or one shutdown step use `every` directly.
 */

/** Calls `fn` every `ms` milliseconds until the returned function is called. Unref'd unless `keepAlive`. */
export function every(ms: number, fn: () => void, options: { keepAlive?: boolean } = {}): () => void {
  const timer = setInterval(fn, ms);
  if (!options.keepAlive) timer.unref();
  return () => clearInterval(timer);
}
