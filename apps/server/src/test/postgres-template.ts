import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';
import { createScratchDatabase } from '../db/scratch-database.js';
import { TEST_POSTGRES_URL } from './postgres-url.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty database on the machine's PostgreSQL that each test server copies (CREATE DATABASE … TEMPLATE). */
    postgresTemplate: string;
  }
}

/**
 * Running every migration took about 3 s of each PostgreSQL test server's start on a loaded 2-core machine;
 * copying a migrated template takes a fraction of that. Made once per run here; startTestServer copies it.
 */
export async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  let template: Awaited<ReturnType<typeof createScratchDatabase>>;
  try {
    template = await createScratchDatabase(TEST_POSTGRES_URL, 'sunward_template');
  } catch {
    return undefined; // no PostgreSQL here: npm test does not run this project then
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'sunward-pg-template-'));
  const database = await openDatabase({ dataDir, databaseUrl: template.url });
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  project.provide('postgresTemplate', template.name);
  return () => template.drop();
}
