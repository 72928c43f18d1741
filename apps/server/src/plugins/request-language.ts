import { DEFAULT_LANGUAGE, type Language, languageFromAcceptLanguage, parseLanguage } from '@sunward/contracts/languages';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's language: the `lan` parameter, else Accept-Language, else English. */
    language: Language;
  }
}

function lanParameter(query: unknown): string | undefined {
  if (query && typeof query === 'object' && 'lan' in query) {
    const lan = (query as { lan: unknown }).lan;
    return typeof lan === 'string' ? lan : undefined;
  }
  return undefined;
}

export const requestLanguagePlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('language', DEFAULT_LANGUAGE);
  app.addHook('onRequest', async (request) => {
    request.language =
      parseLanguage(lanParameter(request.query)) ?? languageFromAcceptLanguage(request.headers['accept-language']) ?? DEFAULT_LANGUAGE;
  });
});
