import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import {
  EventDescriptionEditSchema,
  EventDescriptionImportResultSchema,
  EventDescriptionPageSchema,
  EventDescriptionQuerySchema,
  EventDescriptionRowSchema,
  EventDescriptionTemplateQuerySchema,
} from '@sunward/contracts/event-descriptions';
import { translate } from '@sunward/contracts/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendDownload, XLSX_TYPE } from '../../lib/download.js';
import { ApiError, ok } from '../../lib/envelope.js';
import type { EventDescriptionsService } from './event-descriptions.service.js';

const TAGS = ['Events'];

/** The one file of a multipart body (plugins/body-parsers.ts hands files over as Buffers). */
function singleFile(body: unknown): Buffer | undefined {
  const values = body && typeof body === 'object' ? Object.values(body as Record<string, unknown>) : [];
  const files = values.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v): v is Buffer => Buffer.isBuffer(v));
  return files.length === 1 ? files[0] : undefined;
}

/** Event descriptions per protocol and language (issue 21): the screen's list, the template, one text's edit and the .xlsx import. */
export const eventDescriptionsRoutes: FastifyPluginAsyncZod<{ service: EventDescriptionsService }> = async (app, { service }) => {
  app.get(
    '/api/v1/event/description',
    {
      config: { access: 'event.view' },
      schema: {
        tags: TAGS,
        summary:
          "One protocol's event codes with their description and solution in a language (imported text first, else the register map's), searchable by code or text",
        querystring: EventDescriptionQuerySchema,
        response: { 200: envelopeSchema(EventDescriptionPageSchema) },
      },
    },
    async (request) => ok(request, service.list(request.query, request.language)),
  );

  app.get(
    '/api/v1/event/description/template',
    {
      config: { access: 'event.view' },
      schema: {
        tags: TAGS,
        summary:
          'The import template (.xlsx, columns protocol, code, language, description, solution) of one protocol, pre-filled with its codes and their current texts in a language',
        querystring: EventDescriptionTemplateQuerySchema,
      },
    },
    async (request, reply) => {
      const file = await service.template(request.query, request.language);
      return sendDownload(reply, { type: XLSX_TYPE, fileName: file.fileName, bytes: file.bytes });
    },
  );

  app.put(
    '/api/v1/event/description',
    {
      config: { access: { kind: 'manage', key: 'event.description.import' } },
      schema: {
        tags: TAGS,
        summary:
          "Sets one code's description and solution in one language (replacing the built-in or imported text); an unknown protocol or code is refused on its field (4)",
        body: EventDescriptionEditSchema,
        response: { 200: envelopeSchema(EventDescriptionRowSchema) },
      },
    },
    async (request) => ok(request, await service.edit(request.requireAuth(), request.body, request.language)),
  );

  app.post(
    '/api/v1/event/description/import',
    {
      config: { access: { kind: 'manage', key: 'event.description.import' } },
      schema: {
        tags: TAGS,
        summary:
          'Imports event descriptions from one .xlsx/.xls file (columns protocol, code, language, description, solution): all rows or none (1025 wrong columns, 1026 a bad row, 1027 no rows)',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(EventDescriptionImportResultSchema) },
      },
    },
    async (request) => {
      const file = singleFile(request.body);
      if (!file) throw new ApiError(Code.IMPORT_FILE_INVALID, { problem: translate(request.language, 'import.oneFile') });
      return ok(request, await service.importFile(request.requireAuth(), file, request.language));
    },
  );
};
