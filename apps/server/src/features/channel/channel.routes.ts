import { ChannelChildAddSchema, ChannelSettingsSchema, ChannelTreeSchema } from '@sunward/contracts/channel';
import { envelopeSchema } from '@sunward/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { ChannelService } from './channel.service.js';

const TAGS = ['Channel'];

/** The channel hierarchy (issue 24): the tree with counts per subtree, child companies, channel settings. */
export const channelRoutes: FastifyPluginAsyncZod<{ service: ChannelService }> = async (app, { service }) => {
  app.get(
    '/api/v1/channel/tree',
    {
      config: { access: 'company.info' },
      schema: {
        tags: TAGS,
        summary: "The caller's company and every company below it, with counts of their own plants and of each subtree",
        response: { 200: envelopeSchema(ChannelTreeSchema) },
      },
    },
    async (request) => ok(request, await service.tree(request.requireAuth())),
  );

  app.post(
    '/api/v1/channel/company',
    {
      config: { access: { kind: 'manage', key: 'company.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Creates a child company (a kind below the caller’s) with its first administrator (203 name taken, 104 account taken)',
        body: ChannelChildAddSchema,
        response: { 200: envelopeSchema(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => ok(request, { id: await service.addChild(request.requireAuth(), request.body, request.language) }),
  );

  app.post(
    '/api/v1/channel/settings',
    {
      config: { access: { kind: 'manage', key: 'company.edit' } },
      schema: {
        tags: TAGS,
        summary: "The caller's company's channel settings: children may brand themselves; alarms of the whole subtree reach its users",
        body: ChannelSettingsSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.settings(request.requireAuth(), request.body);
      return ok(request, null);
    },
  );
};
