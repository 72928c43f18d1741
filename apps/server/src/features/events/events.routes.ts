import { envelopeSchema } from '@sunward/contracts/envelope';
import {
  EventCountsSchema,
  EventExportQuerySchema,
  EventFilterSchema,
  EventListQuerySchema,
  EventPageSchema,
} from '@sunward/contracts/events';
import { DownloadRecordSchema } from '@sunward/contracts/files';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendDownload, XLSX_TYPE } from '../../lib/download.js';
import { ok } from '../../lib/envelope.js';
import type { EventsService } from './events.service.js';
import { eventsCsv, eventsWorkbook } from './events-export.js';

const TAGS = ['Events'];

/** The event list over every device the caller sees (issue 5, /device/event): page, badges, export. */
export const eventsRoutes: FastifyPluginAsyncZod<{ service: EventsService }> = async (app, { service }) => {
  app.get(
    '/api/v1/events',
    {
      config: { access: 'event.view' },
      schema: {
        tags: TAGS,
        summary:
          'Device events newest first: period (default the last 7 days; events still open are always in), level, status, device SN, plant, family, keyword',
        querystring: EventListQuerySchema,
        response: { 200: envelopeSchema(EventPageSchema) },
      },
    },
    async (request) => ok(request, await service.list(request.requireAuth(), request.query, request.language)),
  );

  app.get(
    '/api/v1/events/count',
    {
      config: { access: 'event.view' },
      schema: {
        tags: TAGS,
        summary: 'Badges: open events by level and in all, and every event of the period, under the filters but level and status',
        querystring: EventFilterSchema,
        response: { 200: envelopeSchema(EventCountsSchema) },
      },
    },
    async (request) => ok(request, await service.counts(request.requireAuth(), request.query)),
  );

  app.get(
    '/api/v1/events/export',
    {
      config: { access: 'event.export' },
      schema: {
        tags: TAGS,
        summary: 'The event list under the same filters as CSV (UTF-8 with BOM) or .xlsx; refused above 20,000 rows (706)',
        querystring: EventExportQuerySchema,
      },
    },
    async (request, reply) => {
      const { format, ...filter } = request.query;
      const rows = await service.exportRows(request.requireAuth(), filter, request.language);
      const fileName = `events-${new Date().toISOString().slice(0, 10)}.${format}`;
      if (format === 'csv')
        return sendDownload(reply, { type: 'text/csv; charset=utf-8', fileName, bytes: eventsCsv(rows, request.language) });
      return sendDownload(reply, { type: XLSX_TYPE, fileName, bytes: await eventsWorkbook(rows, request.language) });
    },
  );

  app.post(
    '/api/v1/events/export/background',
    {
      config: {
        access: { kind: 'view', key: 'event.export', readsOnly: "prepares the export as a file in the caller's own download centre" },
      },
      schema: {
        tags: TAGS,
        summary:
          'The event list under the same filters (JSON body) as a background job with no row cap; answers the download record (issue 21, GET fileDownloadRecord/list)',
        body: EventExportQuerySchema,
        response: { 200: envelopeSchema(DownloadRecordSchema) },
      },
    },
    async (request) => ok(request, await service.exportInBackground(request.requireAuth(), request.body, request.language)),
  );
};
