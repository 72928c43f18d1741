import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChunkingContext } from 'rolldown';

// Chunks for what every signed-in page loads anyway (issue 18, docs/benchmarks.md). Left to the default split, the
// modules the signed-in shell and antd's provider import became ~100 chunks of 0.1–13 KB that compress far worse
// than a few larger ones (each chunk starts its own gzip window and carries its own import/export glue).

const source = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/** Package entry files that only re-export (`import { Button } from 'antd'`): followed only for the names imported. */
const BARRELS: Record<string, RegExp> = {
  antd: /node_modules[\\/]antd[\\/]es[\\/]index\.js$/,
  '@ant-design/icons': /node_modules[\\/]@ant-design[\\/]icons[\\/]es[\\/]index\.js$/,
};
const isBarrel = (id: string) =>
  Object.values(BARRELS).some((re) => re.test(id)) || /@ant-design[\\/]icons[\\/]es[\\/]icons[\\/]index\.js$/.test(id);

/** The names a module imports from a barrel package (`import { A, B as C } from 'antd'` → A, B). */
function namesImported(code: string | null, barrelId: string): Set<string> | undefined {
  const specifier = Object.entries(BARRELS).find(([, re]) => re.test(barrelId))?.[0];
  if (!code || !specifier) return undefined;
  const names = new Set<string>();
  const from = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["']${specifier.replace('/', '\\/')}["']`, 'g');
  for (const match of code.matchAll(from))
    for (const part of (match[1] ?? '').split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name && !name.startsWith('type ')) names.add(name);
    }
  return names;
}

/** The modules a barrel re-exports under the given names (following `export *` with the same names). */
function barrelTargets(ctx: ChunkingContext, barrelId: string, names: Set<string>): string[] {
  const info = ctx.getModuleInfo(barrelId);
  if (!info?.code) return info?.importedIds ?? [];
  const resolve = (relative: string) => {
    const base = join(dirname(barrelId), relative);
    return info.importedIds.find((id) => id === base || id === `${base}.js` || id === join(base, 'index.js'));
  };
  const targets: string[] = [];
  for (const match of info.code.matchAll(/export\s*\{\s*default as (\w+)\s*\}\s*from\s*["']([^"']+)["']/g)) {
    const target = match[1] && names.has(match[1]) && match[2] ? resolve(match[2]) : undefined;
    if (target) targets.push(target);
  }
  for (const match of info.code.matchAll(/export\s*\*\s*from\s*["']([^"']+)["']/g)) {
    const target = match[1] ? resolve(match[1]) : undefined;
    if (target) targets.push(...barrelTargets(ctx, target, names));
  }
  return targets;
}

/** Every module the roots import statically, through barrels only what is imported from them. */
function staticClosure(ctx: ChunkingContext, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    const info = ctx.getModuleInfo(id);
    for (const imported of info?.importedIds ?? []) {
      if (!isBarrel(imported)) stack.push(imported);
      else {
        const names = namesImported(info?.code ?? null, imported);
        stack.push(...(names ? barrelTargets(ctx, imported, names) : [imported]));
      }
    }
  }
  return seen;
}

/** What the sign-in form needs beyond the app's entry, by name (see `firstLoadChunks`). */
const SIGN_IN_EXTRA =
  /(@tanstack[\\/](query-core|react-query)[\\/].*[Mm]utation|src[\\/]features[\\/]auth[\\/]api|src[\\/]lib[\\/]feature-texts|contracts[\\/]src[\\/]validators)/;

/**
 * Code-splitting groups, each one chunk, for what pages load anyway:
 * - `sign-in`: what the app's entry (`main.tsx`) imports statically and what the sign-in page shares with the
 *   signed-in pages (TanStack mutations, the auth calls, validators, …). Once plant pages shared these modules, the
 *   default split cut them into many small chunks; the sign-in page carries no antd (features/auth/login-fields.tsx).
 * - `antd-core`: what antd's provider (`app/AntdTheme.tsx`, every page but sign-in) imports statically;
 * - `shell`: what the signed-in shell (`app/AppShell.tsx`) adds.
 * Rolldown puts a captured module's imports in its group too, unless a group of higher priority holds them: the
 * order sign-in > antd-core > shell keeps the sign-in page off the other two chunks.
 */
export function firstLoadChunks() {
  let owner: Map<string, string> | undefined;
  const owners = (ctx: ChunkingContext): Map<string, string> => {
    const entry = staticClosure(ctx, [source('main.tsx')]);
    const login = staticClosure(ctx, [source('features/auth/LoginPage.tsx')]);
    const antd = staticClosure(ctx, [source('app/AntdTheme.tsx')]);
    const shell = staticClosure(ctx, [source('app/AppShell.tsx')]);
    const map = new Map<string, string>();
    for (const id of shell) map.set(id, 'shell');
    for (const id of antd) map.set(id, 'antd-core');
    for (const id of login) if (map.has(id)) map.set(id, 'sign-in');
    for (const id of entry) if (id !== source('main.tsx')) map.set(id, 'sign-in');
    return map;
  };
  const group = (name: string, priority: number) => ({
    name: (id: string, ctx: ChunkingContext) => {
      owner ??= owners(ctx);
      return owner.get(id) === name || (name === 'sign-in' && SIGN_IN_EXTRA.test(id)) ? name : null;
    },
    priority,
  });
  return [group('sign-in', 20), group('antd-core', 12), group('shell', 10)];
}
