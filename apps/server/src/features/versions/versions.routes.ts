import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import {
  LatestVersionSchema,
  VersionCheckQuerySchema,
  VersionFieldsSchema,
  VersionHistoryQuerySchema,
  VersionListQuerySchema,
  VersionNotesSchema,
  VersionPageSchema,
  VersionRowSchema,
  VersionTimelineSchema,
} from '@sunward/contracts/versions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { VersionsService } from './versions.service.js';

const TAGS = ['Versions'];
const IdParams = z.object({ id: IdParamSchema });
const Done = envelopeSchema(z.null());
const LanQuery = z.object({ lan: z.string().max(10).optional() });

/**
 * System versions (spec 01 §7 Versions, issue 8): writing is for platform administrators
 * (system.version); the newest number, the timeline and one version's notes are for every signed-in user.
 */
export const versionsRoutes: FastifyPluginAsyncZod<{ service: VersionsService }> = async (app, { service }) => {
  app.get(
    '/api/v1/versions',
    {
      config: { access: 'system.version' },
      schema: {
        tags: TAGS,
        summary: 'System versions with both languages’ notes, newest number first',
        querystring: VersionListQuerySchema,
        response: { 200: envelopeSchema(VersionPageSchema) },
      },
    },
    async (request) => ok(request, await service.page(request.query)),
  );

  app.post(
    '/api/v1/version',
    {
      config: { access: { kind: 'manage', key: 'system.version.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Publishes a version (number unique and above the newest: 4100, 4101) or, with id, replaces its notes; HTML is sanitised',
        body: VersionFieldsSchema,
        response: { 200: envelopeSchema(VersionRowSchema) },
      },
    },
    async (request) => ok(request, await service.save(request.requireAuth(), request.language, request.body)),
  );

  app.get(
    '/api/v1/version/check',
    {
      config: { access: 'system.version' },
      schema: {
        tags: TAGS,
        summary: 'Whether a number may be used for a new version: 0, or 4100 (taken) or 4101 (not above the newest)',
        querystring: VersionCheckQuerySchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.check(request.query.version);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/version/latest',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary: 'The newest version number (null before any): the update dialog opens when it differs from the one remembered',
        response: { 200: envelopeSchema(LatestVersionSchema) },
      },
    },
    async (request) => ok(request, { version: await service.latest() }),
  );

  app.get(
    '/api/v1/version/timeline',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary: 'Every version, newest first, with its notes in the caller’s language (Chinese for cn, else English)',
        querystring: LanQuery,
        response: { 200: envelopeSchema(VersionTimelineSchema) },
      },
    },
    async (request) => ok(request, await service.timeline(request.language)),
  );

  app.get(
    '/api/v1/version',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary: 'Version history: one version’s notes (lan, version; the newest without version) in data.content',
        querystring: VersionHistoryQuerySchema,
        response: { 200: envelopeSchema(VersionNotesSchema) },
      },
    },
    async (request) => ok(request, await service.history(request.language, request.query.version)),
  );

  app.get(
    '/api/v1/version/:id',
    {
      config: { access: 'system.version' },
      schema: {
        tags: TAGS,
        summary: 'One version with both languages’ notes (the edit form)',
        params: IdParams,
        response: { 200: envelopeSchema(VersionRowSchema) },
      },
    },
    async (request) => ok(request, await service.byId(request.params.id)),
  );

  app.get(
    '/api/v1/version/:id/delete',
    {
      config: { access: { kind: 'manage', key: 'system.version.edit' } },
      schema: { tags: TAGS, summary: 'Deletes a version (the one below becomes the newest)', params: IdParams, response: { 200: Done } },
    },
    async (request) => {
      await service.remove(request.params.id);
      return ok(request, null);
    },
  );
};
