import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_PROTOCOLS } from '@sunward/protocol/maps/index';
import { drizzle } from 'drizzle-orm/pg-proxy';
import { Registry } from 'prom-client';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/client.js';
import * as schema from '../db/schema.js';
import { createLiveHub } from '../ingest/live-hub.js';
import { createRegistryEvents } from '../ingest/registry-events.js';

// The protocol store seeds the shipped maps it does not find: they are found, so nothing is written.
const SEEDED_QUERY = 'select "identifier" from "protocols"';
const seeded = BUILT_IN_PROTOCOLS.map((map) => [map.id]);

/**
 * The API document of this build, from an app built and made ready but never listening, over a database
 * that answers every query with no rows (starting PGlite costs 5-40 s; the document needs no data). The
 * optional surfaces (the external broker's auth calls) are switched on so that the document names them.
 */
export async function buildApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sunward-api-document-'));
  const db = drizzle(
    async (query) => {
      return { rows: query === SEEDED_QUERY ? seeded : [] };
    },
    { schema },
  ) as unknown as Database;
  // Nothing is stored, so a transaction is just its body (the proxy driver refuses transactions).
  db.transaction = ((body: (tx: unknown) => Promise<unknown>) => body(db)) as Database['transaction'];
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', MQTT_AUTH_TOKEN: 'document-only-token-0123456789abcdef' });
  const app = await buildApp({
    config,
    database: { db, kind: 'postgres', close: async () => undefined },
    live: createLiveHub(),
    registry: createRegistryEvents(),
    ingestStats: () => ({ reportsStored: 0, readingsStored: 0, batches: 0, rejected: {}, gaps: 0 }),
    commands: () => undefined,
    logger: false,
    observability: {
      readiness: { draining: false, startDraining: () => undefined, check: async () => ({ ready: true, checks: {} }) } as never,
      gauges: new Registry(),
    },
  });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
