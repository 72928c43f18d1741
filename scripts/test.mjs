// npm test: unit, API (PGlite, then the machine's PostgreSQL), and browser tests, with one summary.
// Suites that need a service this machine lacks are skipped and named as skipped.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canConnect, ensureWebBuild, root } from './lib.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const projects = ['unit', 'api'];
const skipped = [];

if (await canConnect(5432)) projects.push('api-postgres');
else skipped.push('API suites on PostgreSQL: no server at 127.0.0.1:5432 (start PostgreSQL to run them)');

if (existsSync(CHROMIUM)) {
  ensureWebBuild();
  projects.push('e2e');
} else skipped.push(`browser suites: no chromium at ${CHROMIUM} (apt-get install -y chromium)`);

const out = mkdtempSync(join(tmpdir(), 'sunward-vitest-'));
// Two phases: the unit and API suites first, then the browser suites on their own (three files at a time), so
// the browser tests never compete with the API suites for this machine's cores.
const phases = [projects.filter((p) => p !== 'e2e'), projects.filter((p) => p === 'e2e')].filter((p) => p.length > 0);
let passed = 0;
let failed = 0;
let skippedTests = 0;
let ok = true;
const notes = [];
for (const [index, phase] of phases.entries()) {
  const report = join(out, `report-${index}.json`);
  const args = [
    'vitest',
    'run',
    ...phase.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ];
  const run = spawnSync('npx', args, { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) {
    ok = false;
    // Vitest also fails a run whose tests all passed when an error escaped them (an unhandled rejection or an
    // error after a test ended): say so, so the summary below does not read as a pass.
    notes.push(`vitest (${phase.join(', ')}) exited with ${run.status ?? run.signal}: see "Unhandled" or "Error" above`);
  }
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed += json.numPassedTests;
    failed += json.numFailedTests + (json.numRuntimeErrorTests ?? 0);
    skippedTests += json.numPendingTests + json.numTodoTests;
  } else ok = false;
}
rmSync(out, { recursive: true, force: true });

console.log('');
for (const line of skipped) console.log(`SKIPPED ${line}`);
for (const line of notes) console.log(`FAILED ${line}`);
console.log(`projects run: ${projects.join(', ')}`);
console.log(`${passed} passed, ${failed} failed, ${skippedTests} skipped`);
process.exit(ok && failed === 0 ? 0 : 1);
