import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaTypes } from '../generate.mjs';

describe('the client types (src/schema.gen.ts)', () => {
  it('are generated from the checked-in openapi.json: run `npm run api:document` after changing a route', async () => {
    const checkedIn = readFileSync(new URL('./schema.gen.ts', import.meta.url), 'utf8');
    expect(checkedIn === (await schemaTypes()), 'src/schema.gen.ts differs from what generate.mjs writes').toBe(true);
    // Generating the types of ~470 operations takes 2-10 s on a loaded 2-core machine.
  }, 60_000);
});
