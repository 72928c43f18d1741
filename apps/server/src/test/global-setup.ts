import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty embedded database (DATA_DIR/pg) that each test server copies instead of creating one. */
    pgliteTemplate: string;
  }
}

/**
 * Creating an embedded database (initdb in WebAssembly, then every migration) took 5-30 s of each test
 * file's setup on a 2-core machine. It is done once per run here; startTestServer copies the folder.
 */
export async function setup(project: TestProject): Promise<() => void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sunward-pg-template-'));
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  await database.close();
  project.provide('pgliteTemplate', join(dataDir, 'pg'));
  return () => rmSync(dataDir, { recursive: true, force: true });
}
