import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import {
  NoticeFieldsSchema,
  NoticeListQuerySchema,
  NoticePageSchema,
  NoticeRowSchema,
  NoticeStatusBodySchema,
  NoticeSuggestListSchema,
  NoticeTemplateSchema,
  NoticeViewQuerySchema,
  NoticeViewSchema,
} from '@sunward/contracts/notices';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { NoticesService } from './notices.service.js';

const TAGS = ['Notices'];
const IdParams = z.object({ id: IdParamSchema });

/**
 * Maintenance notices (spec 01 §7 ss/notices, issue 8): management is for platform administrators
 * (system.notice); the notice in force (view) is for every signed-in user.
 */
export const noticesRoutes: FastifyPluginAsyncZod<{ service: NoticesService }> = async (app, { service }) => {
  app.get(
    '/api/v1/ss/notices',
    {
      config: { access: 'system.notice' },
      schema: {
        tags: TAGS,
        summary: 'Notices, newest first; status and type filters',
        querystring: NoticeListQuerySchema,
        response: { 200: envelopeSchema(NoticePageSchema) },
      },
    },
    async (request) => ok(request, await service.page(request.query)),
  );

  app.post(
    '/api/v1/ss/notices',
    {
      config: { access: { kind: 'manage', key: 'system.notice.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Creates an unpublished notice (start before end, effective time within the window)',
        body: NoticeFieldsSchema,
        response: { 200: envelopeSchema(NoticeRowSchema) },
      },
    },
    async (request) => ok(request, await service.create(request.requireAuth(), request.body)),
  );

  app.get(
    '/api/v1/ss/notices/view',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary:
          'The published notice in force at date (YYYY-MM-DD HH:mm:ss, UTC) for the asking client (scope), texts filled in the caller’s language; null when none',
        querystring: NoticeViewQuerySchema,
        response: { 200: envelopeSchema(NoticeViewSchema.nullable()) },
      },
    },
    async (request) => ok(request, await service.view(request.language, request.query)),
  );

  app.get(
    '/api/v1/ss/notices/template',
    {
      config: { access: 'system.notice' },
      schema: {
        tags: TAGS,
        summary: 'The default descriptions and durations in Chinese and English, with the placeholders the server fills',
        response: { 200: envelopeSchema(NoticeTemplateSchema) },
      },
    },
    async (request) => ok(request, service.template()),
  );

  app.get(
    '/api/v1/ss/notices/suggest',
    {
      config: { access: 'system.notice' },
      schema: {
        tags: TAGS,
        summary: 'Suggestions to pick from: those of recent notices, then the defaults',
        response: { 200: envelopeSchema(NoticeSuggestListSchema) },
      },
    },
    async (request) => ok(request, await service.suggest()),
  );

  app.get(
    '/api/v1/ss/notices/:id',
    {
      config: { access: 'system.notice' },
      schema: { tags: TAGS, summary: 'One notice', params: IdParams, response: { 200: envelopeSchema(NoticeRowSchema) } },
    },
    async (request) => ok(request, await service.byId(request.params.id)),
  );

  app.post(
    '/api/v1/ss/notices/:id',
    {
      config: { access: { kind: 'manage', key: 'system.notice.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Updates a notice that is not invalid (4102 otherwise)',
        params: IdParams,
        body: NoticeFieldsSchema,
        response: { 200: envelopeSchema(NoticeRowSchema) },
      },
    },
    async (request) => ok(request, await service.update(request.params.id, request.body)),
  );

  app.post(
    '/api/v1/ss/notices/:id/status',
    {
      config: { access: { kind: 'manage', key: 'system.notice.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Publishes (0), withdraws (1) or invalidates (2) a notice; invalid is final (4102), the same status again 207',
        params: IdParams,
        body: NoticeStatusBodySchema,
        response: { 200: envelopeSchema(NoticeRowSchema) },
      },
    },
    async (request) => ok(request, await service.setStatus(request.params.id, request.body.status)),
  );
};
