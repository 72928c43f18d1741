import { envelopeSchema } from '@sunward/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { MessagesRepository } from './messages.repository.js';

export const messagesRoutes: FastifyPluginAsyncZod<{ repository: MessagesRepository }> = async (app, { repository }) => {
  app.get(
    '/api/v1/message/count',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['Notices and messages'],
        summary: "The caller's unread message count (the bell's badge)",
        response: { 200: envelopeSchema(z.number().int()) },
      },
    },
    async (request) => ok(request, await repository.unreadCount(request.requireAuth().userId)),
  );
};
