import { createReadStream } from 'node:fs';
import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import {
  DownloadRecordDeleteResultSchema,
  DownloadRecordDeleteSchema,
  DownloadRecordListQuerySchema,
  DownloadRecordPageSchema,
} from '@sunward/contracts/files';
import { IdParamSchema } from '@sunward/contracts/ids';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { XLSX_TYPE } from '../../lib/download.js';
import { ok } from '../../lib/envelope.js';
import type { DownloadCentre } from './files.service.js';

const TAGS = ['Files'];

const CONTENT_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: XLSX_TYPE,
  pdf: 'application/pdf',
  zip: 'application/zip',
};

/** Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266). */
function disposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The download centre (issue 21, calls.tsv Files rows): the caller's own records only. */
export const filesRoutes: FastifyPluginAsyncZod<{ centre: DownloadCentre }> = async (app, { centre }) => {
  app.get(
    '/api/v1/fileDownloadRecord/list',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary: "The caller's download records, newest first: status, progress, rows, size, expiry (files kept DOWNLOAD_RETENTION_DAYS)",
        querystring: DownloadRecordListQuerySchema,
        response: { 200: envelopeSchema(DownloadRecordPageSchema) },
      },
    },
    async (request) => ok(request, await centre.list(request.requireAuth().userId, request.query)),
  );

  app.post(
    '/api/v1/fileDownloadRecord/delete',
    {
      config: {
        access: { kind: 'own-account', reason: "deletes the caller's own download records and their files", readOnlyAccounts: 'allowed' },
      },
      schema: {
        tags: TAGS,
        summary: 'Deletes download records (form body `ids=1,2` or `id=1`) and their files; ids of other users change nothing',
        body: DownloadRecordDeleteSchema,
        response: { 200: envelopeSchema(DownloadRecordDeleteResultSchema) },
      },
    },
    async (request) => ok(request, await centre.remove(request.requireAuth().userId, request.body.ids)),
  );

  app.get(
    '/api/v1/fileDownloadRecord/:id/download',
    {
      config: { access: 'signed-in' },
      schema: {
        'x-codes': [Code.DOWNLOAD_NOT_FOUND, Code.DOWNLOAD_EXPIRED, Code.DOWNLOAD_NOT_READY, Code.DOWNLOAD_FAILED],
        tags: TAGS,
        summary:
          "The file of one of the caller's records; refused with 1020 (not the caller's), 1021 (expired), 1022 (not ready) or 1023 (failed)",
        params: z.object({ id: IdParamSchema }),
      },
    },
    async (request, reply) => {
      const file = await centre.open(request.requireAuth().userId, request.params.id);
      reply
        .type(CONTENT_TYPES[file.format] ?? 'application/octet-stream')
        .header('content-disposition', disposition(file.fileName))
        .header('content-length', String(file.sizeBytes))
        .header('cache-control', 'no-store');
      return reply.send(createReadStream(file.path));
    },
  );
};
