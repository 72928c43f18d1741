// Writes the API document of this build (an app built without listening) to the file named first, as JSON.
// Run by scripts/api-document.mjs under tsx.
import { writeFileSync } from 'node:fs';
import { buildApiDocument } from './document.js';

const out = process.argv[2];
if (!out) throw new Error('usage: dump-cli.ts <file.json>');
writeFileSync(out, `${JSON.stringify(await buildApiDocument(), null, 2)}\n`);
