import { envelopeSchema } from '@sunward/contracts/envelope';
import { SmsListQuerySchema, SmsPageSchema, SmsSendResultSchema, SmsSendSchema } from '@sunward/contracts/notifications';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import type { SmsService } from './sms.service.js';

const TAGS = ['SMS'];

/** SMS sending and record (spec 02 §2 management): platform operators with system.sms. */
export const smsRoutes: FastifyPluginAsyncZod<{ service: SmsService }> = async (app, { service }) => {
  app.post(
    '/api/v1/msg/send',
    {
      config: { access: { kind: 'operate', key: 'system.sms.send' } },
      schema: {
        tags: TAGS,
        summary:
          'Sends one text to each phone (E.164) through the SMS provider; every message is recorded with its status; 429 past the hourly limits',
        body: SmsSendSchema,
        response: { 200: envelopeSchema(SmsSendResultSchema) },
      },
    },
    async (request) => ok(request, await service.send(request.requireAuth(), request.body)),
  );

  app.get(
    '/api/v1/msg/records',
    {
      config: { access: 'system.sms' },
      schema: {
        tags: TAGS,
        summary: 'The SMS send record, newest first: status (sent, failed, logged) and phone filters (Sunward addition)',
        querystring: SmsListQuerySchema,
        response: { 200: envelopeSchema(SmsPageSchema) },
      },
    },
    async (request) => ok(request, await service.page(request.query)),
  );
};
