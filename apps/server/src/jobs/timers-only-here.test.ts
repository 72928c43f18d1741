import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The server's product modules: not tests, nor the test support in src/test. */
function productModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return relative(src, path) === 'test' ? [] : productModules(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('timers', () => {
  it('are started only by jobs/timers.ts: every periodic task goes through the job registry or `every`', () => {
    const offenders = productModules(src)
      .filter((path) => relative(src, path) !== join('jobs', 'timers.ts'))
      .filter((path) => /\bsetInterval\s*\(/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(src, path));
    expect(offenders).toEqual([]);
  });
});
