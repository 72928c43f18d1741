import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Serves the built console; hashed assets are cached for a year, index.html never. */
export const consolePlugin = fp<{ webDist: string }>(async (app: FastifyInstance, { webDist }) => {
  if (!existsSync(join(webDist, 'index.html'))) {
    app.log.warn({ webDist }, 'console build not found: serving the API only (run npm run build)');
    return;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    preCompressed: true,
    setHeaders(reply, path) {
      reply.header('cache-control', path.includes(`${join(webDist, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
});

/** A console route (no extension, not an API prefix) gets index.html; the router then shows the page or its 404. */
export function isConsoleRoute(method: string, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const path = url.split('?')[0] ?? '';
  if (/^\/(api|oauth|anonymous)(\/|$)/.test(path)) return false;
  const last = path.split('/').pop() ?? '';
  return !last.includes('.');
}
