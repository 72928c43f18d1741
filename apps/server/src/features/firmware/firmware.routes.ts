import { envelopeSchema } from '@sunward/contracts/envelope';
import {
  FIRMWARE_LIMITS,
  FIRMWARE_TYPES,
  FirmwareBatchDeleteQuerySchema,
  FirmwareCheckQuerySchema,
  FirmwareEnableSchema,
  FirmwareFieldsSchema,
  FirmwareListQuerySchema,
  FirmwareOptionSchema,
  FirmwarePageSchema,
  FirmwarePublicKeySchema,
  FirmwareRowSchema,
  FirmwareSettingsSchema,
  FirmwareUploadFieldsSchema,
} from '@sunward/contracts/firmware';
import { IdParamSchema } from '@sunward/contracts/ids';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendDownload } from '../../lib/download.js';
import { ok } from '../../lib/envelope.js';
import { requireFile } from '../../lib/multipart.js';
import type { FirmwareService } from './firmware.service.js';

const TAGS = ['Firmware'];
const IdParams = z.object({ id: IdParamSchema });
const Done = envelopeSchema(z.null());
/** Multipart bodies arrive as key → value (fields) or Buffer (files): see plugins/body-parsers.ts. */
const UploadBody = FirmwareUploadFieldsSchema.extend({ file: z.unknown() });

/** The firmware library (issue 6, spec 01 §7 Firmware): platform administrators only. */
export const firmwareRoutes: FastifyPluginAsyncZod<{ service: FirmwareService }> = async (app, { service }) => {
  app.get(
    '/api/v1/firmware/page',
    {
      config: { access: 'firmware.management' },
      schema: {
        tags: TAGS,
        summary: 'Firmware records, newest first: keyword (name, product, manufacturer), type and enabled filters',
        querystring: FirmwareListQuerySchema,
        response: { 200: envelopeSchema(FirmwarePageSchema) },
      },
    },
    async (request) => ok(request, await service.page(request.query)),
  );

  app.get(
    '/api/v1/firmware/check',
    {
      config: { access: 'firmware.management' },
      schema: {
        tags: TAGS,
        summary: 'Whether a name (4000) or a software version of a type (4002) is taken; id leaves that record out',
        querystring: FirmwareCheckQuerySchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.check(request.query);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/firmware/settings',
    {
      config: { access: 'firmware.management' },
      schema: {
        tags: TAGS,
        summary: 'The upload limits in force (FIRMWARE_MAX_MB), for the form to check before sending',
        response: { 200: envelopeSchema(FirmwareSettingsSchema) },
      },
    },
    async (request) => ok(request, { maxBytes: service.maxBytes, fileNameMax: FIRMWARE_LIMITS.fileNameMax }),
  );

  app.get(
    '/api/v1/firmware/publicKey',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary: 'The platform’s Ed25519 public key (PEM) that verifies the signature of every image’s SHA-256',
        response: { 200: envelopeSchema(FirmwarePublicKeySchema) },
      },
    },
    async (request) => ok(request, { algorithm: 'Ed25519' as const, publicKey: service.publicKeyPem }),
  );

  app.post(
    '/api/v1/firmware',
    {
      config: { access: { kind: 'manage', key: 'firmware.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Uploads a gateway or inverter image (multipart: the fields, fileName, md5 and one file "file", .bin or .hex)',
        consumes: ['multipart/form-data'],
        body: UploadBody,
        response: { 200: envelopeSchema(FirmwareRowSchema) },
      },
    },
    async (request) => {
      const { file, ...fields } = request.body;
      return ok(request, await service.upload(request.requireAuth(), request.language, fields, requireFile(file, request.language)));
    },
  );

  app.post(
    '/api/v1/firmware/:id',
    {
      config: { access: { kind: 'manage', key: 'firmware.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Edits a record’s metadata (not its image); the same uniqueness rules as an upload',
        params: IdParams,
        body: FirmwareFieldsSchema,
        response: { 200: envelopeSchema(FirmwareRowSchema) },
      },
    },
    async (request) => ok(request, await service.update(request.requireAuth(), request.language, request.params.id, request.body)),
  );

  app.post(
    '/api/v1/firmware/:id/enable',
    {
      config: { access: { kind: 'manage', key: 'firmware.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Enables or disables a record (the console confirms first)',
        params: IdParams,
        body: FirmwareEnableSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.setEnabled(request.requireAuth(), request.params.id, request.body.enabled);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/firmware/:id/delete',
    {
      config: { access: { kind: 'manage', key: 'firmware.edit' } },
      schema: { tags: TAGS, summary: 'Deletes a record and its image', params: IdParams, response: { 200: Done } },
    },
    async (request) => {
      await service.remove(request.requireAuth(), [request.params.id]);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/firmware/batchDelete',
    {
      config: { access: { kind: 'manage', key: 'firmware.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Deletes several records and their images (ids=1,2,3)',
        querystring: FirmwareBatchDeleteQuerySchema,
        response: { 200: envelopeSchema(z.object({ deleted: z.number() })) },
      },
    },
    async (request) => ok(request, { deleted: await service.remove(request.requireAuth(), request.query.ids) }),
  );

  app.get(
    '/api/v1/firmware/:id/file',
    {
      config: { access: 'firmware.management' },
      schema: { tags: TAGS, summary: 'Downloads a record’s image', params: IdParams },
    },
    async (request, reply) => {
      const { fileName, bytes } = await service.file(request.params.id);
      return sendDownload(reply, { type: 'application/octet-stream', fileName, bytes, noStore: true });
    },
  );

  app.get(
    '/api/v1/firmware/image/:id',
    {
      config: { access: 'public' },
      schema: {
        tags: TAGS,
        summary: 'The image a device fetches for an upgrade, by a signed link valid for an hour (no session)',
        params: IdParams,
        querystring: z.object({ exp: z.coerce.number().int().positive(), sig: z.string().regex(/^[0-9a-f]{64}$/) }),
      },
    },
    async (request, reply) => {
      const bytes = await service.image(request.params.id, request.query.exp, request.query.sig);
      return reply.type('application/octet-stream').header('cache-control', 'no-store').send(bytes);
    },
  );

  app.get(
    '/api/v1/firmware/options',
    {
      config: { access: { kind: 'operate', key: 'inverter.upgrade' } },
      schema: {
        tags: TAGS,
        summary:
          "Enabled images of a type that install remotely, for the upgrade picker (only those authorised for the caller's company tree)",
        querystring: z.object({ type: z.enum(FIRMWARE_TYPES).default('inverter') }),
        response: { 200: envelopeSchema(z.array(FirmwareOptionSchema)) },
      },
    },
    async (request) => ok(request, await service.options(request.query.type, request.requireAuth())),
  );
};
