import { envelopeSchema } from '@sunward/contracts/envelope';
import { AnalyseRequestSchema, FrameAnalysisSchema } from '@sunward/contracts/protocol-analysis';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import { analyse } from './protocol-analysis.service.js';

/** Protocol analysis: platform administrators, who manage protocols (spec 02 §6). */
export const protocolAnalysisRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/protocol-analysis',
    {
      config: { access: { kind: 'view', key: 'system.protocol', readsOnly: 'reads a pasted frame with a protocol; stores nothing' } },
      schema: {
        tags: ['Protocols'],
        summary: 'Reads a Modbus RTU or TCP frame, or a gateway report, with a protocol: each register named, each point decoded',
        description:
          'RTU frames are refused on a wrong CRC, TCP frames on a wrong MBAP header; a read response needs the start address ' +
          'of its request. Addresses no point covers are listed in `unknown`. Code 4 names the field that cannot be read.',
        body: AnalyseRequestSchema,
        response: { 200: envelopeSchema(FrameAnalysisSchema) },
      },
    },
    async (request) => ok(request, analyse(request.body, request.language)),
  );
};
