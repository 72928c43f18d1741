import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_PROTOCOLS, SUNSPEC_INVERTER_3P } from './maps/index.js';
import { registerMapFiles, registerMapReference } from './reference.js';

const DOCS = fileURLToPath(new URL('../../../docs/register-maps/', import.meta.url));

describe('register map reference (docs/register-maps)', () => {
  it('is current: regenerate with `node scripts/register-maps.mjs` after changing a map', () => {
    const expected = registerMapFiles(BUILT_IN_PROTOCOLS);
    const present = readdirSync(DOCS).filter((name) => name.endsWith('.md'));
    expect(present.sort()).toEqual([...expected.keys()].sort());
    for (const [name, text] of expected) expect(readFileSync(join(DOCS, name), 'utf8'), name).toBe(text);
  });

  it('lists each point with register, type, scale, unit and required flag, and the events', () => {
    const page = registerMapReference(SUNSPEC_INVERTER_3P);
    expect(page).toMatch(/^\| `W` \| .+ \| 3 \| \d+ \| 1 \| s16 \| × 10\^W_SF \| W \| read \| yes \|/m);
    expect(page).toMatch(/^\| 1001 \| fault \| `Evt1` \| \d+ \| 0 \| Ground fault/m);
  });
});
