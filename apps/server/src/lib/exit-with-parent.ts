import { fstatSync } from 'node:fs';
import { every } from '../jobs/timers.js';

/**
 * Preloaded (`node --import tsx --import …/exit-with-parent.ts`) into a child process that must not
 * outlive its parent: the server `npm start` runs, and the simulator the server runs. However the parent
 * ends (exit, crash, `kill -9`), the child stops too:
 * - the parent spawns it with a pipe as stdin and never writes to it; when the parent is gone the kernel
 *   closes the pipe and the child reads end-of-file at once;
 * - as a second watch, the parent's process id is polled each second (it changes when the parent dies).
 * The child then stops as on SIGTERM (its own orderly shutdown) and exits within 10 s regardless.
 */
const parent = process.ppid;
let leaving = false;

function parentGone(): void {
  if (leaving) return;
  leaving = true;
  process.stderr.write(`parent process ${parent} ended: stopping (pid ${process.pid})\n`);
  setTimeout(() => process.exit(1), 10_000).unref();
  process.kill(process.pid, 'SIGTERM');
}

/** Only a pipe or socket says when its writer is gone (a terminal or /dev/null says nothing, or EOF at once). */
function stdinIsPipe(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

if (stdinIsPipe()) {
  process.stdin.on('end', parentGone);
  process.stdin.on('error', parentGone);
  process.stdin.resume();
  // The watch alone keeps nothing alive: a child that is done exits as before.
  (process.stdin as { unref?: () => void }).unref?.();
}
every(1000, () => {
  if (process.ppid !== parent) parentGone();
});
