import { envelopeSchema } from '@sunward/contracts/envelope';
import {
  HardwareListQuerySchema,
  HardwareModelSchema,
  HardwarePageSchema,
  HardwareSaveSchema,
  ProductsSchema,
} from '@sunward/contracts/hardware';
import { IdParamSchema } from '@sunward/contracts/ids';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { HardwareService } from './hardware.service.js';

const TAGS = ['Hardware'];
const IdParams = z.object({ id: IdParamSchema });
const VIEW = 'firmware.management';
const EDIT = { kind: 'manage', key: 'firmware.edit' } as const;

/**
 * The hardware list and products (calls.tsv families `hardware`, `products`, which name no paths; issue 19).
 * Spec 02 §1 places the hardware list beside the firmware list: the same platform-administrator permissions.
 */
export const hardwareRoutes: FastifyPluginAsyncZod<{ service: HardwareService }> = async (app, { service }) => {
  app.get(
    '/api/v1/hardware',
    {
      config: { access: VIEW },
      schema: {
        tags: TAGS,
        summary: 'Hardware models the platform knows, searched by manufacturer, model or protocol, with how many devices report each',
        querystring: HardwareListQuerySchema,
        response: { 200: envelopeSchema(HardwarePageSchema) },
      },
    },
    async (request) => ok(request, await service.page(request.query)),
  );

  app.post(
    '/api/v1/hardware',
    {
      config: { access: EDIT },
      schema: {
        tags: TAGS,
        summary:
          'Adds a hardware model: manufacturer and model unique regardless of case (4220); a firmware range the checks cannot read is refused 4',
        body: HardwareSaveSchema,
        response: { 200: envelopeSchema(HardwareModelSchema) },
      },
    },
    async (request) => ok(request, await service.create(request.requireAuth(), request.body)),
  );

  app.put(
    '/api/v1/hardware/:id',
    {
      config: { access: EDIT },
      schema: {
        tags: TAGS,
        summary: 'Changes a hardware model (4220 when another has the manufacturer and model)',
        params: IdParams,
        body: HardwareSaveSchema,
        response: { 200: envelopeSchema(HardwareModelSchema) },
      },
    },
    async (request) => ok(request, await service.update(request.params.id, request.body)),
  );

  app.delete(
    '/api/v1/hardware/:id',
    {
      config: { access: EDIT },
      schema: { tags: TAGS, summary: 'Deletes a hardware model', params: IdParams, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await service.remove(request.params.id);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/products',
    {
      config: { access: VIEW },
      schema: {
        tags: TAGS,
        summary: 'Products: the known hardware models grouped by manufacturer (brand)',
        response: { 200: envelopeSchema(ProductsSchema) },
      },
    },
    async (request) => ok(request, await service.products()),
  );
};
