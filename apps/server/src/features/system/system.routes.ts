import { AboutSchema } from '@sunward/contracts/auth';
import { envelopeSchema } from '@sunward/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Database, pingDatabase } from '../../db/client.js';
import { ok } from '../../lib/envelope.js';

export const systemRoutes: FastifyPluginAsyncZod<{ version: string; db: Database }> = async (app, { version, db }) => {
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
