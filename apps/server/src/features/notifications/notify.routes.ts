import { envelopeSchema } from '@sunward/contracts/envelope';
import {
  NotifyCodeQuerySchema,
  NotifyCodeResultSchema,
  NotifySettingsSchema,
  NotifySettingsUpdateSchema,
} from '@sunward/contracts/notifications';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import type { NotifySettingsService } from './notify-settings.service.js';

const TAGS = ['Authentication and account'];

/** E-mail exception notification settings of the signed-in user (spec 01 §7 user/notify*). */
export const notifyRoutes: FastifyPluginAsyncZod<{ service: NotifySettingsService }> = async (app, { service }) => {
  app.get(
    '/api/v1/user/notify/enable',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary: 'The caller’s e-mail alarm settings: on or off, the confirmed address, levels and per-plant rules',
        response: { 200: envelopeSchema(NotifySettingsSchema) },
      },
    },
    async (request) => ok(request, await service.settings(request.requireAuth().userId)),
  );

  app.get(
    '/api/v1/user/notify/code',
    {
      config: { access: { kind: 'own-account', reason: 'sends or checks a code for the caller’s own alarm e-mail address' } },
      schema: {
        tags: TAGS,
        summary:
          'With email: sends a confirmation code there (one a minute, else 429). With email and code: checks it (5 wrong, 6 expired)',
        querystring: NotifyCodeQuerySchema,
        response: { 200: envelopeSchema(NotifyCodeResultSchema) },
      },
    },
    async (request) => ok(request, await service.code(request.requireAuth(), request.language, request.query.email, request.query.code)),
  );

  app.post(
    '/api/v1/user/notify',
    {
      config: { access: { kind: 'own-account', reason: 'the caller’s own alarm e-mail settings' } },
      schema: {
        tags: TAGS,
        summary: 'Saves the e-mail alarm settings; a new address needs the code sent to it (5, 6); plants must be visible (700)',
        body: NotifySettingsUpdateSchema,
        response: { 200: envelopeSchema(NotifySettingsSchema) },
      },
    },
    async (request) => ok(request, await service.update(request.requireAuth(), request.language, request.body)),
  );
};
