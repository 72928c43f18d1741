import { envelopeSchema } from '@sunward/contracts/envelope';
import { FirmwareReleaseLogSchema, FirmwareReleaseQuerySchema } from '@sunward/contracts/firmware-releases';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import type { FirmwareService } from './firmware.service.js';

/**
 * The public firmware release log behind /firmwareLogging (calls.tsv: GET /anonymous/firmware/version/timeline):
 * no sign-in; enabled records only, without files, hashes or signatures.
 */
export const firmwareReleasesRoutes: FastifyPluginAsyncZod<{ service: FirmwareService }> = async (app, { service }) => {
  app.get(
    '/anonymous/firmware/version/timeline',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Firmware'],
        summary: 'The firmware release log: enabled releases, newest first, grouped by product; optional product filter',
        querystring: FirmwareReleaseQuerySchema,
        response: { 200: envelopeSchema(FirmwareReleaseLogSchema) },
      },
    },
    async (request) => ok(request, await service.releases(request.query)),
  );

  // Spec 01 §7 lists it beside the public timeline in the account table: the same release log for a signed-in
  // console (the version history of the images its devices may receive), under the API's own prefix.
  app.get(
    '/api/v1/firmware/versions',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['Firmware'],
        summary: 'The firmware release log for signed-in users (same answer as /anonymous/firmware/version/timeline)',
        querystring: FirmwareReleaseQuerySchema,
        response: { 200: envelopeSchema(FirmwareReleaseLogSchema) },
      },
    },
    async (request) => ok(request, await service.releases(request.query)),
  );
};
