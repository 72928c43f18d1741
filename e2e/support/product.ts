import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '@sunward/server/test/harness';

export const WEB_DIST = fileURLToPath(new URL('../../apps/web/dist', import.meta.url));

/** The real server serving the built console, on an ephemeral port with a fresh database. */
export function startProduct(env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ WEB_DIST, ...env });
}
