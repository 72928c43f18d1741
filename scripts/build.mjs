// npm run build: the production build. The server, its command-line tools and the simulator become plain
// JavaScript bundles (esbuild; the workspace packages are bundled in, node_modules stay external), run by
// plain `node` without tsx; the console is built by Vite as before. Types are checked by `npm run check`,
// not here (docs/decisions.md: compiled server).
//   node scripts/build.mjs            server + simulator + console
//   node scripts/build.mjs --server   server + simulator only (npm start uses it when only those changed)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { root, serverBuildEntries } from './lib.mjs';

const serverOnly = process.argv.includes('--server');

/** Only the workspace's own packages are bundled; every other import is resolved by node at run time. */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@sunward/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Builds into a folder of its own and swaps it in with two renames, so a server starting from the old build
 * (another `npm start` on this checkout) never finds it half-written or half-deleted.
 */
async function bundle(outdir, entryPoints, extra = () => undefined) {
  const staging = `${outdir}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir: staging,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [externalDependencies],
  });
  extra(staging);
  const old = `${outdir}.old-${process.pid}`;
  if (existsSync(outdir)) renameSync(outdir, old);
  renameSync(staging, outdir);
  rmSync(old, { recursive: true, force: true });
}

const started = Date.now();
const entries = serverBuildEntries();
// The bundle sits one folder below the server's root like src/ does, so paths relative to the code
// (../../web/dist, ../../../package.json) resolve alike; the migrations travel beside it.
await bundle(join(root, 'apps/server/dist'), entries.server, (dir) =>
  cpSync(join(root, 'apps/server/src/db/migrations'), join(dir, 'migrations'), { recursive: true }),
);
await bundle(join(root, 'apps/simulator/dist'), entries.simulator);
console.log(`Built the server and the simulator (apps/*/dist) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

if (!serverOnly) {
  const result = spawnSync('npm', ['run', 'build', '-w', '@sunward/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
