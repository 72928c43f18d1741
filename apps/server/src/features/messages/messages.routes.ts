import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import {
  MessageListQuerySchema,
  MessagePageSchema,
  MessageStateBodySchema,
  MessageStatesBodySchema,
  MessageStatesResultSchema,
} from '@sunward/contracts/notifications';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { MessagesService } from './messages.service.js';

const TAGS = ['Notices and messages'];

/** The notification centre (spec 01 §7 Notices and messages): every call acts on the caller's own messages. */
export const messagesRoutes: FastifyPluginAsyncZod<{ service: MessagesService }> = async (app, { service }) => {
  app.get(
    '/api/v1/message/count',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary: "The caller's unread message count (the bell's badge)",
        response: { 200: envelopeSchema(z.number().int()) },
      },
    },
    async (request) => ok(request, await service.unreadCount(request.requireAuth().userId)),
  );

  app.get(
    '/api/v1/messages',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary:
          "The caller's messages, newest first: type (1 system announcement, 2 equipment alarm), state (0 unread, 1 read), receive time from/to",
        querystring: MessageListQuerySchema,
        response: { 200: envelopeSchema(MessagePageSchema) },
      },
    },
    async (request) => ok(request, await service.page(request.requireAuth().userId, request.query)),
  );

  app.post(
    '/api/v1/message/:id/state',
    {
      config: { access: { kind: 'own-account', reason: 'read or unread state of the caller’s own message', readOnlyAccounts: 'allowed' } },
      schema: {
        tags: TAGS,
        summary: 'Marks one of the caller’s messages read (state 1, the default) or unread (0); 404 for any other id',
        params: z.object({ id: IdParamSchema }),
        body: MessageStateBodySchema.nullish(),
        response: { 200: envelopeSchema(MessageStatesResultSchema) },
      },
    },
    async (request) => ok(request, await service.setState(request.requireAuth().userId, request.params.id, request.body?.state ?? 1)),
  );

  app.post(
    '/api/v1/message/update/states',
    {
      config: { access: { kind: 'own-account', reason: 'read or unread state of the caller’s own messages', readOnlyAccounts: 'allowed' } },
      schema: {
        tags: TAGS,
        summary: 'Sets the state of the caller’s listed messages (ids), or of all of them without ids (read all)',
        body: MessageStatesBodySchema.nullish(),
        response: { 200: envelopeSchema(MessageStatesResultSchema) },
      },
    },
    async (request) => ok(request, await service.setStates(request.requireAuth().userId, request.body?.ids, request.body?.state ?? 1)),
  );
};
