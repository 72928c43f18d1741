import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Host names browsers treat as potentially trustworthy over plain HTTP. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Strict-Transport-Security for answers to https requests: half a year, as helmet's default. */
export const HSTS = 'max-age=15552000; includeSubDomains';

/**
 * A strict Content-Security-Policy the console passes: scripts only from this origin, no inline
 * script; inline styles are allowed because antd writes its CSS-in-JS into <style> tags.
 *
 * `upgrade-insecure-requests` and HSTS go only with answers to https requests (directly, or through a proxy
 * TRUST_PROXY believes): over plain HTTP by host name or LAN address they would send every asset to an https
 * port nothing answers, and the console would stay blank (issue 17).
 */
export const securityHeadersPlugin = fp<{ mediaOrigins?: string[] }>(async (app: FastifyInstance, options) => {
  // Camera video (issue 23): hls.js feeds the <video> through Media Source Extensions (a blob: URL); an external
  // media server (ZLMediaKit, ZLM_PLAY_URL) serves the HLS from its own origin.
  const mediaOrigins = options.mediaOrigins ?? [];
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Map tiles of the plant map: OpenStreetMap, and AutoNavi where OSM is not reachable (China).
        imgSrc: ["'self'", 'data:', 'blob:', 'https://tile.openstreetmap.org', 'https://*.is.autonavi.com'],
        connectSrc: ["'self'", ...mediaOrigins],
        mediaSrc: ["'self'", 'blob:', ...mediaOrigins],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    hsts: false,
  });
  app.addHook('onSend', async (request, reply) => {
    // request.protocol is X-Forwarded-Proto only from a trusted proxy (TRUST_PROXY), else the connection's own.
    if (request.protocol !== 'https') {
      // Browsers ignore Cross-Origin-Opener-Policy from an untrustworthy origin (plain HTTP by host name) and say so
      // as a console error on every page; it stays where it applies (localhost and https).
      if (!LOOPBACK_HOSTS.has(request.hostname)) reply.removeHeader('cross-origin-opener-policy');
      return;
    }
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string' && !policy.includes('upgrade-insecure-requests'))
      reply.header('content-security-policy', `${policy};upgrade-insecure-requests`);
    reply.header('strict-transport-security', HSTS);
  });
});
