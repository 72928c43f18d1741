import { envelopeSchema } from '@sunward/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../lib/envelope.js';
import type { LiveHub } from './live-hub.js';

const IngestStatsSchema = z.object({
  reportsStored: z.number(),
  readingsStored: z.number(),
  batches: z.number(),
  gaps: z.number(),
  rejected: z.record(z.string(), z.number()),
  liveConnections: z.number(),
});

/** GET /api/v1/ingest/stats: what the pipeline stored and refused since start (platform operators). */
export const ingestRoutes: FastifyPluginAsyncZod<{ stats: () => z.infer<typeof IngestStatsSchema>; live: LiveHub }> = async (
  app,
  { stats },
) => {
  app.get(
    '/api/v1/ingest/stats',
    {
      config: { access: 'system.monitor' },
      schema: {
        tags: ['System'],
        summary: 'Ingest figures since start: stored, refused by reason, gaps',
        response: { 200: envelopeSchema(IngestStatsSchema) },
      },
    },
    async (request) => ok(request, stats()),
  );
};
