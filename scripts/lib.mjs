// Helpers shared by the root scripts (start, dev, test).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const webDist = join(root, 'apps/web/dist');

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** Builds the console when its build is missing or older than its sources. */
export function ensureWebBuild() {
  const built = newestMtime(join(webDist, 'index.html'));
  const sources = Math.max(
    ...['apps/web/src', 'apps/web/index.html', 'apps/web/public', 'apps/web/vite.config.ts', 'packages/contracts/src'].map((p) =>
      newestMtime(join(root, p)),
    ),
  );
  if (built > sources) return;
  console.log('Building the console (apps/web)…');
  const result = spawnSync('npm', ['run', 'build', '-w', '@sunward/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * The server process's environment: ours, plus glibc's malloc told to give allocations of 64 KB and more their
 * own mapping (returned to the system when freed) instead of raising that threshold as it goes and keeping freed
 * socket reads and batch buffers in its arenas (docs/decisions.md "Memory under overload"). Set it yourself to
 * choose another; the Docker image sets the same.
 */
export function serverEnv(env = process.env) {
  return { MALLOC_MMAP_THRESHOLD_: '65536', ...env };
}

/** Runs a child with our stdio and passes Ctrl-C and SIGTERM on to it. */
export function runForwarding(command, args, options = {}) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return child;
}

/** True when something accepts TCP connections at host:port within the timeout. */
export function canConnect(port, host = '127.0.0.1', timeoutMs = 1500) {
  return new Promise((resolvePromise) => {
    const socket = createConnection({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolvePromise(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Files under dir (recursively) whose names end with suffix, tests excluded. */
function filesEnding(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : filesEnding(path, suffix);
    return entry.name.endsWith(suffix) && !entry.name.includes('.test.') ? [path] : [];
  });
}

/**
 * What the production build compiles (scripts/build.mjs): the server, the preload that ties a child to its
 * parent, every command-line tool of the server (*-cli.ts), and the simulator; each becomes dist/<name>.js.
 */
export function serverBuildEntries() {
  const server = [
    { out: 'main', in: join(root, 'apps/server/src/main.ts') },
    { out: 'exit-with-parent', in: join(root, 'apps/server/src/lib/exit-with-parent.ts') },
    ...filesEnding(join(root, 'apps/server/src'), '-cli.ts').map((path) => ({ out: basename(path, '.ts'), in: path })),
  ];
  return { server, simulator: [{ out: 'main', in: join(root, 'apps/simulator/src/main.ts') }] };
}

export const serverMain = join(root, 'apps/server/dist/main.js');
export const exitWithParent = join(root, 'apps/server/dist/exit-with-parent.js');

/**
 * Compiles the server and the simulator (scripts/build.mjs --server) when their build is missing or older
 * than their sources or the packages they bundle, so `npm start` on a fresh clone or after a pull runs
 * what is checked out, and starts at once otherwise.
 */
export function ensureServerBuild() {
  // A container image holds the build without the sources (Dockerfile): nothing to compare, nothing to build.
  if (!existsSync(join(root, 'apps/server/src'))) return;
  const built = Math.min(newestMtime(serverMain), newestMtime(join(root, 'apps/simulator/dist/main.js')));
  const sources = Math.max(
    ...['apps/server/src', 'apps/simulator/src', 'packages/contracts/src', 'packages/protocol/src', 'package-lock.json'].map((p) =>
      newestMtime(join(root, p)),
    ),
  );
  if (built > sources) return;
  console.log('Compiling the server (apps/server, apps/simulator)…');
  const result = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--server'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
