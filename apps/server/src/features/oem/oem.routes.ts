import type { Readable } from 'node:stream';
import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import { BrandSchema, OEM_IMAGE_SLOT_NAMES, OEM_LIMITS, OemFieldsSchema, OemListSchema, OemProjectSchema } from '@sunward/contracts/oem';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, ok } from '../../lib/envelope.js';
import type { OemService } from './oem.service.js';

const TAGS = ['OEM'];
const IdParams = z.object({ id: IdParamSchema });
const Project = envelopeSchema(OemProjectSchema);
const SlotParams = z.object({ id: IdParamSchema, slot: z.enum(OEM_IMAGE_SLOT_NAMES as [string, ...string[]]) });
const UPLOAD_TYPES = ['application/octet-stream', 'application/vnd.android.package-archive', 'image/png', 'image/jpeg', 'image/svg+xml'];

/** Reads at most `max` + 1 bytes of an upload (enough to say it is too large). */
async function collect(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    if (size <= max) chunks.push(bytes);
    size += bytes.length;
  }
  return Buffer.concat(chunks).subarray(0, max + 1);
}

function uploadStream(body: unknown): Readable {
  if (!body || typeof body !== 'object' || typeof (body as Readable).pipe !== 'function') throw new ApiError(Code.VALIDATION);
  return body as Readable;
}

/** "bytes=a-b", "bytes=a-", "bytes=-n" within `size`: the inclusive range, or 'invalid' (416); none: undefined. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'invalid' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

/**
 * OEM projects (issue 24): managed by platform administrators (system.oem, system.oem.edit); their images,
 * APKs (resumable, Range) and the brand of the requesting host are public, since the sign-in and download
 * pages show them.
 */
export const oemRoutes: FastifyPluginAsyncZod<{ service: OemService }> = async (app, { service }) => {
  // Uploads arrive as the raw file (the console sends the File itself): an APK is streamed to disk.
  app.addContentTypeParser(UPLOAD_TYPES, (_request, payload, done) => done(null, payload));

  app.get(
    '/api/v1/oems',
    {
      config: { access: 'system.oem' },
      schema: { tags: TAGS, summary: 'Every OEM project with its images and APKs', response: { 200: envelopeSchema(OemListSchema) } },
    },
    async (request) => ok(request, await service.list()),
  );

  app.get(
    '/api/v1/oem/companies',
    {
      config: { access: 'system.oem' },
      schema: {
        tags: TAGS,
        summary: 'Companies an OEM project may belong to (keyword on the name, first 50)',
        querystring: z.object({ keyword: z.string().trim().max(64).optional() }),
        response: { 200: envelopeSchema(z.array(z.object({ id: z.number().int(), name: z.string() }))) },
      },
    },
    async (request) => ok(request, await service.companies(request.query.keyword)),
  );

  app.get(
    '/api/v1/oem/:id',
    {
      config: { access: 'system.oem' },
      schema: { tags: TAGS, summary: 'One OEM project', params: IdParams, response: { 200: Project } },
    },
    async (request) => ok(request, await service.byId(request.params.id)),
  );

  app.post(
    '/api/v1/oem',
    {
      config: { access: { kind: 'manage', key: 'system.oem.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Creates an OEM project for a company: domain format (5003), taken (5002), one per company (5006)',
        body: OemFieldsSchema,
        response: { 200: Project },
      },
    },
    async (request) => ok(request, await service.create(request.body)),
  );

  app.post(
    '/api/v1/oem/:id',
    {
      config: { access: { kind: 'manage', key: 'system.oem.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Edits an OEM project; a new domain only 30 days after the last change (5005, data.nextChange)',
        params: IdParams,
        body: OemFieldsSchema,
        response: { 200: Project },
      },
    },
    async (request) => ok(request, await service.update(request.language, request.params.id, request.body)),
  );

  app.post(
    '/api/v1/oem/:id/enabled',
    {
      config: { access: { kind: 'manage', key: 'system.oem.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Enables or disables an OEM project (a disabled domain answers "not available")',
        params: IdParams,
        body: z.object({ enabled: z.boolean() }),
        response: { 200: Project },
      },
    },
    async (request) => ok(request, await service.setEnabled(request.params.id, request.body.enabled)),
  );

  app.post(
    '/api/v1/oem/:id/image/:slot',
    {
      config: { access: { kind: 'manage', key: 'system.oem.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Uploads a logo or the login image (raw body): PNG or JPEG by content, exact size per slot, login logo PNG only',
        params: SlotParams,
        response: { 200: Project },
      },
    },
    async (request) => {
      const bytes = await collect(uploadStream(request.body), OEM_LIMITS.loginImageMaxBytes);
      const slot = request.params.slot as (typeof OEM_IMAGE_SLOT_NAMES)[number];
      return ok(request, await service.uploadImage(request.language, request.params.id, slot, bytes));
    },
  );

  app.post(
    '/api/v1/oem/:id/apk',
    {
      config: { access: { kind: 'manage', key: 'system.oem.edit' } },
      // The APK is streamed to disk by the service, which stops at 300 MB; Fastify's own limit does not apply to streams.
      bodyLimit: OEM_LIMITS.apkMaxBytes + 1024 * 1024,
      schema: {
        tags: TAGS,
        summary:
          'Uploads an APK (raw body, ?version=x.x.x): an Android package by content, at most 300 MB; version or file already there: 5004',
        params: IdParams,
        querystring: z.object({ version: z.string().max(20) }),
        response: { 200: Project },
      },
    },
    async (request) =>
      ok(request, await service.uploadApk(request.language, request.params.id, request.query.version, uploadStream(request.body))),
  );

  app.post(
    '/api/v1/oem/:id/apk/:apkId/delete',
    {
      config: { access: { kind: 'manage', key: 'system.oem.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Deletes an APK version',
        params: z.object({ id: IdParamSchema, apkId: IdParamSchema }),
        response: { 200: Project },
      },
    },
    async (request) => ok(request, await service.removeApk(request.params.id, request.params.apkId)),
  );

  app.get(
    '/anonymous/brand',
    {
      config: { access: 'public' },
      schema: {
        tags: TAGS,
        summary: 'The brand of the requesting host: its OEM’s name, colour, images, store links and APKs, or the default (oem false)',
        response: { 200: envelopeSchema(BrandSchema) },
      },
    },
    async (request) => {
      const answer = await service.brandOf(request.headers.host);
      if (answer.kind === 'unavailable') throw new ApiError(Code.NOT_FOUND);
      if (answer.kind === 'oem') return ok(request, answer.brand);
      return ok(request, { oem: false, name: 'Sunward', themeColor: null, images: {}, iosUrl: null, androidUrl: null, apks: [] });
    },
  );

  app.get(
    '/api/v1/oem/files/:name',
    {
      config: { access: 'public' },
      schema: { tags: TAGS, summary: 'An OEM image (random name)', params: z.object({ name: z.string().max(64) }) },
    },
    async (request, reply) => {
      const file = await service.readImage(request.params.name);
      if (!file) throw new ApiError(Code.NOT_FOUND);
      return reply.header('content-type', file.mime).header('cache-control', 'public, max-age=86400').send(file.bytes);
    },
  );

  app.get(
    '/api/v1/oem/apk/:name',
    {
      config: { access: 'public' },
      schema: {
        tags: TAGS,
        summary: 'An APK, resumable (Range: bytes=start-end answers 206; beyond the end 416)',
        params: z.object({ name: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const record = await service.apkByFile(request.params.name);
      const file = record?.enabled ? await service.apkFile(request.params.name) : undefined;
      if (!record || !file) throw new ApiError(Code.NOT_FOUND);
      const range = byteRange(request.headers.range, file.size);
      reply
        .header('accept-ranges', 'bytes')
        .header('content-type', 'application/vnd.android.package-archive')
        .header('content-disposition', `attachment; filename="app-${record.version}.apk"`)
        .header('cache-control', 'no-cache');
      if (range === 'invalid') return reply.code(416).header('content-range', `bytes */${file.size}`).send();
      if (!range) return reply.header('content-length', file.size).send(file.read(0, Math.max(0, file.size - 1)));
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
        .header('content-length', range.end - range.start + 1)
        .send(file.read(range.start, range.end));
    },
  );
};
