import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import {
  LayoutEditorDataSchema,
  LayoutLinkSchema,
  LayoutLiveSchema,
  LogicalLayoutSchema,
  LogicalPeriodSchema,
  PhysicalLayoutSchema,
  PublicLayoutSchema,
  SaveLayoutBodySchema,
} from '@sunward/contracts/plant-layout';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { PlantLayoutService } from './plant-layout.service.js';

const TAGS = ['Plants'];
const IdParams = z.object({ id: IdParamSchema });
/** calls.tsv names layout/{type}; the one stored type is the physical layout. */
const TypeParams = IdParams.extend({ type: z.enum(['physical']) });
const DateQuery = z.object({ date: z.string().max(10).optional() });

/** Spec 01 §2 plant layout: the physical editor's document, the logical tree, live colouring, the public link. */
export const plantLayoutRoutes: FastifyPluginAsyncZod<{ service: PlantLayoutService }> = async (app, { service }) => {
  app.get(
    '/api/v1/plant/:id/physical/layout',
    {
      config: { access: 'station.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary:
          'The editor’s data: the saved physical layout (version 0 when none), the optimizers and inverters to bind, whether the caller may edit',
        params: IdParams,
        response: { 200: envelopeSchema(LayoutEditorDataSchema) },
      },
    },
    async (request) => ok(request, await service.editor(request.requireAuth(), request.params.id)),
  );

  app.get(
    '/api/v1/plant/:id/layout/:type',
    {
      config: { access: 'station.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'The saved physical layout',
        params: TypeParams,
        response: { 200: envelopeSchema(PhysicalLayoutSchema) },
      },
    },
    async (request) => ok(request, await service.physical(request.requireAuth(), request.params.id)),
  );

  app.post(
    '/api/v1/plant/:id/layout/:type',
    {
      config: { access: { kind: 'manage', key: 'station.edit' } },
      schema: {
        'x-codes': [
          Code.PLANT_NOT_FOUND,
          Code.LAYOUT_VERSION_STALE,
          Code.LAYOUT_TOO_MANY_PANELS,
          Code.LAYOUT_GROUP_LOCKED,
          Code.LAYOUT_REFERENCE_INVALID,
        ],
        tags: TAGS,
        summary:
          'Saves the physical layout over the version it was loaded at (4300 when someone saved since; 4301 over 99 panels; 4302 deleting a group holding bound, reporting panels; 4304 a reference outside the plant)',
        params: TypeParams,
        body: SaveLayoutBodySchema,
        response: { 200: envelopeSchema(PhysicalLayoutSchema) },
      },
    },
    async (request) => ok(request, await service.save(request.requireAuth(), request.params.id, request.body)),
  );

  app.get(
    '/api/v1/plant/:id/logical/layout/:type',
    {
      config: { access: 'station.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'The logical tree (root → inverters → strings → optimizers → panels) with power (W) or the period’s energy (kWh)',
        params: IdParams.extend({ type: LogicalPeriodSchema.or(z.literal('default')).transform((t) => (t === 'default' ? 'power' : t)) }),
        querystring: DateQuery,
        response: { 200: envelopeSchema(LogicalLayoutSchema) },
      },
    },
    async (request) =>
      ok(request, await service.logical(request.requireAuth(), request.params.id, request.params.type, request.query.date)),
  );

  app.get(
    '/api/v1/plant/:id/physical/layout/live',
    {
      config: { access: 'station.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'Each optimizer’s power now and its 15-minute means over a plant-local day (today by default)',
        params: IdParams,
        querystring: DateQuery,
        response: { 200: envelopeSchema(LayoutLiveSchema) },
      },
    },
    async (request) => ok(request, await service.live(request.requireAuth(), request.params.id, request.query.date)),
  );

  app.get(
    '/api/v1/plant/:id/layout/link',
    {
      config: { access: { kind: 'manage', key: 'station.share', readsOnly: 'says whether a public layout link exists' } },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'Whether a public layout link exists',
        params: IdParams,
        response: { 200: envelopeSchema(LayoutLinkSchema) },
      },
    },
    async (request) => ok(request, await service.link(request.requireAuth(), request.params.id)),
  );

  app.post(
    '/api/v1/plant/:id/layout/link',
    {
      config: { access: { kind: 'manage', key: 'station.share' } },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'Creates the public read-only layout link (replacing any earlier one); the token is answered once',
        params: IdParams,
        response: { 200: envelopeSchema(LayoutLinkSchema) },
      },
    },
    async (request) => ok(request, await service.createLink(request.requireAuth(), request.params.id)),
  );

  app.post(
    '/api/v1/plant/:id/layout/link/revoke',
    {
      config: { access: { kind: 'manage', key: 'station.share' } },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'Revokes the public layout link',
        params: IdParams,
        response: { 200: envelopeSchema(LayoutLinkSchema) },
      },
    },
    async (request) => ok(request, await service.revokeLink(request.requireAuth(), request.params.id)),
  );

  app.get(
    '/api/v1/public/layout/:token',
    {
      config: { access: 'public' },
      schema: {
        'x-codes': [Code.LAYOUT_LINK_INVALID],
        tags: TAGS,
        summary: '/plantLayout: the layout, live colouring and logical tree through a public link (4303 unknown or revoked)',
        params: z.object({ token: z.string().max(100) }),
        querystring: DateQuery.extend({ period: LogicalPeriodSchema.default('power') }),
        response: { 200: envelopeSchema(PublicLayoutSchema) },
      },
    },
    async (request) => ok(request, await service.publicView(request.params.token, request.query.period, request.query.date)),
  );
};
