import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { AppEnableSchema, AppListSchema, SmartAppSchema } from '@sunward/contracts/smart-home';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { SmartAppsService } from './smart-apps.service.js';

const TAGS = ['Application centre'];

/** component/apps (spec 01 §7 under Lighting): the company's apps, enabled by its administrator. */
export const smartAppsRoutes: FastifyPluginAsyncZod<{ service: SmartAppsService }> = async (app, { service }) => {
  app.get(
    '/api/v1/component/apps',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary: 'The apps of the application centre with their state for the caller’s company (the menu follows the enabled ones)',
        response: { 200: envelopeSchema(AppListSchema) },
      },
    },
    async (request) => ok(request, await service.list(request.requireAuth())),
  );

  app.post(
    '/api/v1/component/apps/:app/enable',
    {
      config: { access: { kind: 'manage', key: 'company.edit' } },
      schema: {
        tags: TAGS,
        summary:
          'Enables or disables an app for the caller’s company (its administrator; cameras need the platform administrator’s grant first: 4613)',
        'x-codes': [Code.APP_NOT_AVAILABLE, Code.VIDEO_SERVICE_NOT_GRANTED],
        params: z.object({ app: SmartAppSchema }),
        body: AppEnableSchema,
        response: { 200: envelopeSchema(AppListSchema) },
      },
    },
    async (request) => ok(request, await service.setEnabled(request.requireAuth(), request.params.app, request.body.enabled)),
  );
};
