import { readFileSync } from 'node:fs';

/** The product version, from the root package.json; shown in the console footer. */
export const SERVER_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
