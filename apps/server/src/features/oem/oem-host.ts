import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import type { Brand } from '@sunward/contracts/oem';
import type { FastifyInstance } from 'fastify';
import { isConsoleRoute } from '../../plugins/console.js';
import type { OemService } from './oem.service.js';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * index.html with an OEM's brand in it: its name as the title, its colour as theme-color and the brand as a
 * JSON data block the console reads before it draws anything (no flash of the default brand; a data block
 * is not a script, so the strict CSP stays).
 */
export function brandedIndex(html: string, brand: Brand): string {
  const json = JSON.stringify(brand).replace(/</g, '\\u003c');
  const head = [
    `<script type="application/json" id="sunward-brand">${json}</script>`,
    brand.themeColor ? `<meta name="theme-color" content="${escapeHtml(brand.themeColor)}">` : '',
    brand.images.systemIcon ? `<link rel="icon" href="${escapeHtml(brand.images.systemIcon)}">` : '',
  ].join('');
  return html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(brand.name)}</title>`).replace('</head>', `${head}</head>`);
}

/** The plain page a disabled or unknown OEM domain answers, in the caller's language. */
export function unavailablePage(language: Language): string {
  const title = escapeHtml(translate(language, 'oem.unavailableTitle'));
  const text = escapeHtml(translate(language, 'oem.unavailableText'));
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body style="font-family:sans-serif;margin:4rem auto;max-width:36rem;padding:0 1rem;color:#222"><h1>${title}</h1><p>${text}</p></body></html>`;
}

/**
 * Host-based branding (issue 24): on <domain>.<BASE_DOMAIN> every console page is index.html with that
 * OEM's brand; a disabled or unknown OEM domain answers every request with the "not available" page (404).
 */
export function installOemHost(app: FastifyInstance, deps: { service: OemService; webDist: string | undefined }): void {
  let index: Promise<string | undefined> | undefined;
  const readIndex = () => {
    index ??= deps.webDist ? readFile(join(deps.webDist, 'index.html'), 'utf8').catch(() => undefined) : Promise.resolve(undefined);
    return index;
  };
  app.addHook('onRequest', async (request, reply) => {
    if (deps.service.domainOf(request.headers.host) === undefined) return;
    const answer = await deps.service.brandOf(request.headers.host);
    if (answer.kind === 'unavailable') {
      return reply
        .code(404)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(unavailablePage(request.language));
    }
    if (answer.kind !== 'oem' || !isConsoleRoute(request.method, request.url)) return;
    const html = await readIndex();
    if (!html) return;
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(brandedIndex(html, answer.brand));
  });
}
