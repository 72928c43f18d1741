import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '@sunward/server/test/harness';

/** E2E_WEB_DIST lets one engineer test a console built elsewhere while another rebuilds apps/web/dist. */
export const WEB_DIST = process.env.E2E_WEB_DIST ?? fileURLToPath(new URL('../../apps/web/dist', import.meta.url));

/** The real server serving the built console, on an ephemeral port with a fresh database. */
export function startProduct(env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ WEB_DIST, ...env });
}
