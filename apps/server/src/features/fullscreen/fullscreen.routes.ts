import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import {
  DISPLAY_TOKEN_HEADER,
  DisplayCompanySchema,
  DisplayDataQuerySchema,
  DisplayDataSchema,
  DisplayLinkCreatedSchema,
  DisplayLinkCreateSchema,
  DisplayLinkRowSchema,
} from '@sunward/contracts/fullscreen';
import { IdParamSchema } from '@sunward/contracts/ids';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { FullscreenService } from './fullscreen.service.js';

const TAGS = ['Large-screen display'];
const IdParams = z.object({ id: IdParamSchema });

/**
 * The `fullscreen` family (spec 01 §187; issue 20): the large-screen display's figures, signed in or through a
 * display link, and the display links themselves (create, list, revoke).
 */
export const fullscreenRoutes: FastifyPluginAsyncZod<{ service: FullscreenService }> = async (app, { service }) => {
  app.get(
    '/api/v1/fullscreen/links',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: "Display links the caller made (and, for a company member, the company's display links), newest first",
        response: { 200: envelopeSchema(z.array(DisplayLinkRowSchema)) },
      },
    },
    async (request) => ok(request, await service.list(request.requireAuth())),
  );

  app.get(
    '/api/v1/fullscreen/companies',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Companies a platform administrator may make a company display for (keyword on the name, first 50); 700 for others',
        querystring: z.object({ keyword: z.string().trim().max(64).optional() }),
        response: { 200: envelopeSchema(z.array(DisplayCompanySchema)) },
      },
    },
    async (request) => ok(request, await service.companies(request.requireAuth(), request.query.keyword)),
  );

  app.post(
    '/api/v1/fullscreen/links',
    {
      config: { access: { kind: 'manage', key: 'station.share' } },
      schema: {
        'x-codes': [Code.NOT_FOUND, Code.PLANT_NOT_FOUND, Code.DISPLAY_LINK_LIMIT],
        tags: TAGS,
        summary:
          "Creates a display link for the caller's company (members; a platform administrator for any company by companyId, 404 if none) or chosen plants the caller sees (700 otherwise); the token is answered once (4312 at the most active links)",
        body: DisplayLinkCreateSchema,
        response: { 200: envelopeSchema(DisplayLinkCreatedSchema) },
      },
    },
    async (request) => ok(request, await service.create(request.requireAuth(), request.body)),
  );

  app.post(
    '/api/v1/fullscreen/links/:id/revoke',
    {
      config: { access: { kind: 'manage', key: 'station.share' } },
      schema: {
        'x-codes': [Code.DISPLAY_LINK_INVALID],
        tags: TAGS,
        summary: 'Revokes a display link at once (its creator, or a member of its company); 4310 for any other',
        params: IdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.revoke(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/fullscreen/data',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary:
          "The display's figures for the caller's plants: fleet KPIs (the plant list's and overviews' sums), statuses and coordinates, top and bottom by specific yield, active alarms, one plant's energy flow",
        querystring: DisplayDataQuerySchema,
        response: { 200: envelopeSchema(DisplayDataSchema) },
      },
    },
    async (request) => ok(request, await service.data(service.signedIn(request.requireAuth()), request.query, request.language)),
  );

  app.get(
    '/api/v1/fullscreen/link/data',
    {
      // Public: the display link in the x-display-token header is the credential, checked at every call.
      config: { access: 'public' },
      schema: {
        'x-codes': [Code.DISPLAY_LINK_INVALID, Code.DISPLAY_LINK_EXPIRED],
        tags: TAGS,
        summary: `The display's figures through a display link (token in the ${DISPLAY_TOKEN_HEADER} header): 4310 unknown or revoked, 4311 expired`,
        querystring: DisplayDataQuerySchema,
        headers: z.object({ [DISPLAY_TOKEN_HEADER]: z.string().max(200).optional() }),
        response: { 200: envelopeSchema(DisplayDataSchema) },
      },
    },
    async (request) => {
      const token = request.headers[DISPLAY_TOKEN_HEADER];
      const viewer = await service.byToken(typeof token === 'string' ? token : '', request.ip);
      return ok(request, await service.data(viewer, request.query, request.language));
    },
  );
};
