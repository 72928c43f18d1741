import { envelopeSchema } from '@sunward/contracts/envelope';
import { DownloadRecordSchema } from '@sunward/contracts/files';
import {
  CommandLogExportSchema,
  ConnectionLogExportSchema,
  ConnectionLogPageSchema,
  ConnectionLogQuerySchema,
  MaintenanceLogExportSchema,
  MaintenanceLogPageSchema,
  MaintenanceLogQuerySchema,
} from '@sunward/contracts/logs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import type { LogsService } from './logs.service.js';

const TAGS = ['Logs'];

/** The logger family (issue 21, /log): gateway communication history and the maintenance log. */
export const logsRoutes: FastifyPluginAsyncZod<{ service: LogsService }> = async (app, { service }) => {
  app.get(
    '/api/v1/logger/communication',
    {
      config: { access: 'logger.management' },
      schema: {
        tags: TAGS,
        summary:
          'Gateway communication history, newest first: connects, disconnects (address, reason, session length) and refused reports or logins (reason, count); filters sn, kind, from, to',
        querystring: ConnectionLogQuerySchema,
        response: { 200: envelopeSchema(ConnectionLogPageSchema) },
      },
    },
    async (request) => ok(request, await service.connections(request.requireAuth(), request.query)),
  );

  app.post(
    '/api/v1/logger/communication/export',
    {
      config: {
        access: { kind: 'view', key: 'logger.management', readsOnly: "prepares the export as a file in the caller's own download centre" },
      },
      schema: {
        tags: TAGS,
        summary: 'The communication history under the same filters (JSON body) as a file in the download centre; answers its record',
        body: ConnectionLogExportSchema,
        response: { 200: envelopeSchema(DownloadRecordSchema) },
      },
    },
    async (request) => ok(request, await service.exportConnections(request.requireAuth(), request.body, request.language)),
  );

  app.post(
    '/api/v1/logger/commands/export',
    {
      config: {
        access: { kind: 'view', key: 'logger.management', readsOnly: "prepares the export as a file in the caller's own download centre" },
      },
      schema: {
        tags: TAGS,
        summary:
          'The command audit (upgrade records, commands, debug reads and writes) under the page’s filters (JSON body: sn, op, status, from, to) as a file in the download centre, with no row cap',
        body: CommandLogExportSchema,
        response: { 200: envelopeSchema(DownloadRecordSchema) },
      },
    },
    async (request) => ok(request, await service.exportCommands(request.requireAuth(), request.body, request.language)),
  );

  app.get(
    '/api/v1/logger/maintenance',
    {
      config: { access: 'logger.upgrade.record' },
      schema: {
        tags: TAGS,
        summary:
          'The maintenance log (every change to equipment: who, when, what, on which target, result), newest first; filters account, target, action, result, from, to',
        querystring: MaintenanceLogQuerySchema,
        response: { 200: envelopeSchema(MaintenanceLogPageSchema) },
      },
    },
    async (request) => ok(request, await service.maintenance(request.requireAuth(), request.query)),
  );

  app.post(
    '/api/v1/logger/maintenance/export',
    {
      config: {
        access: {
          kind: 'view',
          key: 'logger.upgrade.record',
          readsOnly: "prepares the export as a file in the caller's own download centre",
        },
      },
      schema: {
        tags: TAGS,
        summary: 'The maintenance log under the same filters (JSON body) as a file in the download centre; answers its record',
        body: MaintenanceLogExportSchema,
        response: { 200: envelopeSchema(DownloadRecordSchema) },
      },
    },
    async (request) => ok(request, await service.exportMaintenance(request.requireAuth(), request.body, request.language)),
  );
};
