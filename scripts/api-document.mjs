#!/usr/bin/env node
// The API document (issue 25). Without arguments: writes packages/api-client/openapi.json from an app built without
// listening, and the client's types (packages/api-client/src/schema.gen.ts) from it; run after changing a route.
// With --check (npm run check): builds the document again, lints it with Redocly CLI (redocly.yaml, recommended
// rules, offline) and fails on any problem, or when the checked-in document differs from the server's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './lib.mjs';

const CLIENT = join(root, 'packages', 'api-client');
const DOCUMENT = join(CLIENT, 'openapi.json');
const check = process.argv.includes('--check');
const started = Date.now();

const dir = mkdtempSync(join(tmpdir(), 'sunward-api-document-'));
try {
  const built = join(dir, 'openapi.json');
  run(process.execPath, ['--import', 'tsx', join(root, 'apps/server/src/openapi/dump-cli.ts'), built], 'building the API document');
  if (!check) {
    writeFileSync(DOCUMENT, readFileSync(built));
    run(process.execPath, [join(CLIENT, 'generate.mjs')], 'generating the client types');
    console.log(`packages/api-client: openapi.json and src/schema.gen.ts written (${Date.now() - started} ms)`);
  } else {
    run(
      process.execPath,
      [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', built, '--config', join(root, 'redocly.yaml'), '--format', 'summary'],
      'Redocly lint of the API document',
    );
    if (readFileSync(built, 'utf8') !== readFileSync(DOCUMENT, 'utf8')) {
      console.error('packages/api-client/openapi.json is not the server’s document: run `node scripts/api-document.mjs` and commit it');
      process.exit(1);
    }
    console.log(`API document: lint clean and packages/api-client/openapi.json current (${Date.now() - started} ms)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function run(command, args, what) {
  // Redocly: no usage data sent and no update check (the check runs offline).
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NODE_NO_WARNINGS: '1' };
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`${what} failed`);
    process.exit(result.status ?? 1);
  }
}
