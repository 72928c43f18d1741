import { AboutSchema } from '@sunward/contracts/auth';
import { envelopeSchema } from '@sunward/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Database, pingDatabase } from '../../db/client.js';
import { ok } from '../../lib/envelope.js';

export const systemRoutes: FastifyPluginAsyncZod<{
  version: string;
  db: Database;
  appLinks: { ios: string | undefined; android: string | undefined };
}> = async (app, { version, db, appLinks }) => {
  app.get(
    '/anonymous/about',
    {
      config: { access: 'public' },
      schema: {
        tags: ['System'],
        summary: 'Product name and server version (footer, update dialog)',
        response: { 200: envelopeSchema(AboutSchema) },
      },
    },
    async (request) => ok(request, { name: 'Sunward', version }),
  );

  app.get(
    '/anonymous/download/url',
    {
      config: { access: 'public' },
      schema: {
        tags: ['System'],
        summary: 'Where the mobile app is downloaded (APP_IOS_URL, APP_ANDROID_URL); null where none is configured',
        response: { 200: envelopeSchema(z.object({ ios: z.string().nullable(), android: z.string().nullable() })) },
      },
    },
    async (request) => ok(request, { ios: appLinks.ios ?? null, android: appLinks.android ?? null }),
  );

  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['System'],
        summary: 'Liveness: the server answers and its database responds',
        response: { 200: envelopeSchema(z.object({ status: z.literal('ok') })) },
      },
    },
    async (request) => {
      await pingDatabase(db);
      return ok(request, { status: 'ok' as const });
    },
  );
};
