// The web app's layering, checked by `npm run check` (see src/README.md):
//  - a file in src/features/X never imports from src/features/Y (shared code lives in src/components and src/lib);
//  - src/components and src/lib never import a feature;
//  - no import circle anywhere in src (madge, type-only imports included).
// Exits 1 with the offending imports listed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const WEB = dirname(fileURLToPath(import.meta.url));
const SRC = join(WEB, 'src');
/**
 * Known crossings still to undo, each with its reason; the check fails on any other, and on an entry here
 * that no longer occurs (so the list only shrinks).
 */
const KNOWN = new Set([]);
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*)(['"])(\.{1,2}\/[^'"]*)\1/g;

/** Every .ts/.tsx file under a folder. */
function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The layer of a file: ['features', name] | ['components'] | ['lib'] | ['app'] | []. */
function layerOf(path) {
  const parts = relative(SRC, path).split(sep);
  if (parts[0] === 'features') return ['features', parts[1]];
  return [parts[0]];
}

/** Import-boundary problems of the files under src: one line each. */
export function boundaryProblems() {
  const problems = [];
  const seen = new Set();
  for (const file of sources(SRC)) {
    const [layer, feature] = layerOf(file);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), match[2]);
      if (relative(SRC, target).startsWith('..')) continue;
      const [targetLayer, targetFeature] = layerOf(target);
      if (targetLayer !== 'features') continue;
      const where = `${relative(WEB, file).split(sep).join('/')} imports ${match[2]}`;
      if (KNOWN.has(where)) {
        seen.add(where);
        continue;
      }
      if (layer === 'features' && targetFeature !== feature) problems.push(`${where}: a feature imports another feature`);
      if (layer === 'components' || layer === 'lib') problems.push(`${where}: shared code imports a feature`);
    }
  }
  for (const known of KNOWN) if (!seen.has(known)) problems.push(`${known}: gone, remove it from KNOWN in check-layers.mjs`);
  return problems;
}

/** Import circles in src, each as a list of files. */
export async function circles() {
  const graph = await madge(SRC, {
    fileExtensions: ['ts', 'tsx'],
    tsConfig: join(WEB, 'tsconfig.json'),
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  });
  return graph.circular();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = boundaryProblems();
  for (const circle of await circles()) problems.push(`import circle: ${circle.join(' > ')}`);
  if (problems.length > 0) {
    console.error(`apps/web layering (src/README.md): ${problems.length} problem(s)\n${problems.join('\n')}`);
    process.exit(1);
  }
  console.log('apps/web layering: no feature imports another, no import circle');
}
