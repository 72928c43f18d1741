#!/usr/bin/env node
// Writes docs/register-maps/*.md from the built-in register maps (packages/protocol/src/reference.ts).
// Run after changing a map: node scripts/register-maps.mjs. packages/protocol/src/reference.test.ts
// fails while the checked-in pages differ from what this writes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!process.env.SUNWARD_REGISTER_MAPS_CHILD) {
  // The maps are TypeScript: run this file again under tsx.
  const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, SUNWARD_REGISTER_MAPS_CHILD: '1' },
  });
  process.exit(run.status ?? 1);
}
const { BUILT_IN_PROTOCOLS } = await import('../packages/protocol/src/maps/index.ts');
const { registerMapFiles } = await import('../packages/protocol/src/reference.ts');
const dir = join(root, 'docs', 'register-maps');
mkdirSync(dir, { recursive: true });
const files = registerMapFiles(BUILT_IN_PROTOCOLS);
for (const name of readdirSync(dir)) if (name.endsWith('.md') && !files.has(name)) rmSync(join(dir, name));
for (const [name, text] of files) writeFileSync(join(dir, name), text);
console.log(`docs/register-maps: ${files.size} files written`);
