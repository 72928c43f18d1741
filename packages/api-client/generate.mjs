#!/usr/bin/env node
// The client's types from the checked-in API document: src/schema.gen.ts (openapi-typescript, offline).
// scripts/api-document.mjs runs this after writing openapi.json; src/schema.test.ts fails while the file differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = '// Generated from openapi.json by packages/api-client/generate.mjs (node scripts/api-document.mjs); do not edit.\n\n';

/** The text of src/schema.gen.ts for the document in openapi.json. */
export async function schemaTypes() {
  const document = JSON.parse(readFileSync(new URL('./openapi.json', import.meta.url), 'utf8'));
  return HEADER + astToString(await openapiTS(document, { alphabetize: true }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('./src/schema.gen.ts', import.meta.url), await schemaTypes());
}
