import {
  DictEnabledSchema,
  DictEntryFieldsSchema,
  DictEntryRowSchema,
  DictEntryUpdateSchema,
  DictListQuerySchema,
  DictPageSchema,
} from '@sunward/contracts/dictionary';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import { DictEntrySchema } from '@sunward/contracts/plants';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { DictionaryService } from './dictionary.service.js';

const IdParams = z.object({ id: IdParamSchema });
const Entries = envelopeSchema(z.array(DictEntrySchema));

/**
 * The dictionary (issue 24): the pickers' dict/currencies, dict/timezones and dict/plantTypes for every
 * signed-in user, and its management for platform administrators (system.dict, system.dict.edit).
 */
export const dictionaryRoutes: FastifyPluginAsyncZod<{ service: DictionaryService }> = async (app, { service }) => {
  app.get(
    '/api/v1/dict/currencies',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['Plants'],
        summary: 'Currencies with their names in the caller’s language (from the dictionary)',
        response: { 200: Entries },
      },
    },
    async (request) => ok(request, await service.currencies(request.language)),
  );

  app.get(
    '/api/v1/dict/timezones',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['Plants'], summary: 'Time zones of the dictionary with their current UTC offsets', response: { 200: Entries } },
    },
    async (request) => ok(request, await service.timeZones(request.language)),
  );

  app.get(
    '/api/v1/dict/plantTypes',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['Plants'],
        summary: 'Plant types (grid-connected, AC-coupled storage, DC-coupled storage) with their dictionary names',
        response: { 200: Entries },
      },
    },
    async (request) => ok(request, await service.plantTypes(request.language)),
  );

  app.get(
    '/api/v1/dicts',
    {
      config: { access: 'system.dict' },
      schema: {
        tags: ['Dictionary'],
        summary: 'Dictionary entries of one type (keyword on code and texts), in their order',
        querystring: DictListQuerySchema,
        response: { 200: envelopeSchema(DictPageSchema) },
      },
    },
    async (request) => ok(request, await service.page(request.language, request.query)),
  );

  app.post(
    '/api/v1/dict',
    {
      config: { access: { kind: 'manage', key: 'system.dict.edit' } },
      schema: {
        tags: ['Dictionary'],
        summary:
          'Adds an entry: code unique within its type (5000); plant types are fixed (5001); texts per language when internationalised',
        body: DictEntryFieldsSchema,
        response: { 200: envelopeSchema(DictEntryRowSchema) },
      },
    },
    async (request) => ok(request, await service.create(request.language, request.body)),
  );

  app.post(
    '/api/v1/dict/:id',
    {
      config: { access: { kind: 'manage', key: 'system.dict.edit' } },
      schema: {
        tags: ['Dictionary'],
        summary: 'Edits an entry’s order, internationalised flag and texts (type and code stay)',
        params: IdParams,
        body: DictEntryUpdateSchema,
        response: { 200: envelopeSchema(DictEntryRowSchema) },
      },
    },
    async (request) => ok(request, await service.update(request.language, request.params.id, request.body)),
  );

  app.post(
    '/api/v1/dict/:id/enabled',
    {
      config: { access: { kind: 'manage', key: 'system.dict.edit' } },
      schema: {
        tags: ['Dictionary'],
        summary: 'Enables or disables an entry (a disabled one is no longer offered; plants keep its code)',
        params: IdParams,
        body: DictEnabledSchema,
        response: { 200: envelopeSchema(DictEntryRowSchema) },
      },
    },
    async (request) => ok(request, await service.setEnabled(request.language, request.params.id, request.body.enabled)),
  );
};
