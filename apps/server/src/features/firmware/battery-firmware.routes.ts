import {
  BatteryFirmwareFieldsSchema,
  BatteryFirmwareListQuerySchema,
  BatteryFirmwarePageSchema,
  BatteryFirmwareRowSchema,
  BatteryFirmwareUploadFieldsSchema,
  BatteryProductCheckQuerySchema,
  BatteryProductFieldsSchema,
  BatteryProductListQuerySchema,
  BatteryProductPageSchema,
  BatteryTypeAddSchema,
  BatteryTypeCheckQuerySchema,
  BatteryTypeEditSchema,
  BatteryTypeMoveSchema,
  BatteryTypeNodeSchema,
} from '@sunward/contracts/battery-firmware';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { FirmwareEnableSchema } from '@sunward/contracts/firmware';
import { IdParamSchema } from '@sunward/contracts/ids';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendDownload } from '../../lib/download.js';
import { ok } from '../../lib/envelope.js';
import { requireFile } from '../../lib/multipart.js';
import type { BatteryFirmwareService } from './battery-firmware.service.js';

const TAGS = ['Battery firmware'];
const IdParams = z.object({ id: IdParamSchema });
const Done = envelopeSchema(z.null());
const Created = envelopeSchema(z.object({ id: z.number() }));
/** Multipart bodies arrive as key → value (fields) or Buffer (files): see plugins/body-parsers.ts. */
const UploadBody = BatteryFirmwareUploadFieldsSchema.extend({ file: z.unknown() });
const VIEW = { access: 'firmware.battery.view' } as const;
const EDIT = { access: { kind: 'manage', key: 'firmware.battery.edit' } } as const;

/**
 * The battery firmware library (spec 01 §7 Firmware, calls.tsv area Firmware): battery images, battery
 * types and battery products. Platform administrators only (firmware.battery.view / .edit).
 */
export const batteryFirmwareRoutes: FastifyPluginAsyncZod<{ service: BatteryFirmwareService }> = async (app, { service }) => {
  // ---- images ----

  app.post(
    '/api/v1/firmware/battery/save',
    {
      config: EDIT,
      schema: {
        tags: TAGS,
        summary:
          'Uploads a battery image (multipart: the fields, fileName, md5 and one file "file", .bin or .hex); 4000, 4002 as the main library',
        consumes: ['multipart/form-data'],
        body: UploadBody,
        response: { 200: envelopeSchema(BatteryFirmwareRowSchema) },
      },
    },
    async (request) => {
      const { file, ...fields } = request.body;
      return ok(request, await service.save(request.requireAuth(), request.language, fields, requireFile(file, request.language)));
    },
  );

  app.get(
    '/api/v1/firmware/battery/list',
    {
      config: VIEW,
      schema: {
        tags: TAGS,
        summary: 'Battery images, newest first: keyword, battery type (a primary covers its subtypes), product and enabled filters',
        querystring: BatteryFirmwareListQuerySchema,
        response: { 200: envelopeSchema(BatteryFirmwarePageSchema) },
      },
    },
    async (request) => ok(request, await service.firmwarePage(request.query)),
  );

  // calls.tsv reads the detail as GET battery/{id}, the path the battery device detail (GET battery/{sn},
  // devices feature) already answers; the detail takes the catalogue note's other reading, firmware/battery/{id}.
  app.get(
    '/api/v1/firmware/battery/:id',
    {
      config: VIEW,
      schema: {
        tags: TAGS,
        summary: 'A battery image with its type and product',
        params: IdParams,
        response: { 200: envelopeSchema(BatteryFirmwareRowSchema) },
      },
    },
    async (request) => ok(request, await service.detail(request.params.id)),
  );

  // The update answers at both readings: battery/{id} as calls.tsv spells it, firmware/battery/{id} beside the detail.
  // Only the second is in the API document: battery/{id} would be the same path as the device detail GET battery/{sn}.
  for (const path of ['/api/v1/firmware/battery/:id', '/api/v1/battery/:id'])
    app.post(
      path,
      {
        config: EDIT,
        schema: {
          hide: path === '/api/v1/battery/:id',
          tags: TAGS,
          summary: 'Edits a battery image’s metadata (not its file); the same rules as a save',
          params: IdParams,
          body: BatteryFirmwareFieldsSchema,
          response: { 200: envelopeSchema(BatteryFirmwareRowSchema) },
        },
      },
      async (request) => ok(request, await service.update(request.requireAuth(), request.language, request.params.id, request.body)),
    );

  app.post(
    '/api/v1/firmware/battery/:id/enable',
    {
      config: EDIT,
      schema: {
        tags: TAGS,
        summary: 'Enables or disables a battery image (an enabled image is offered for upgrades and shown in the release log)',
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

  app.post(
    '/api/v1/firmware/battery/:id/delete',
    {
      config: EDIT,
      schema: { tags: TAGS, summary: 'Deletes a battery image and its file', params: IdParams, response: { 200: Done } },
    },
    async (request) => {
      await service.remove(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/firmware/battery/:id/file',
    { config: VIEW, schema: { tags: TAGS, summary: 'Downloads a battery image', params: IdParams } },
    async (request, reply) => {
      const { fileName, bytes } = await service.file(request.params.id);
      return sendDownload(reply, { type: 'application/octet-stream', fileName, bytes, noStore: true });
    },
  );

  // ---- types ----

  app.get(
    '/api/v1/firmware/batteryType',
    {
      config: VIEW,
      schema: {
        tags: TAGS,
        summary: 'The battery type tree: primary types with their secondary types and how many products and images use each',
        response: { 200: envelopeSchema(z.array(BatteryTypeNodeSchema)) },
      },
    },
    async (request) => ok(request, await service.tree()),
  );

  app.get(
    '/api/v1/firmware/batteryType/check',
    {
      config: VIEW,
      schema: {
        tags: TAGS,
        summary: 'Whether a name is free among its siblings (4004): primaries without parentId, secondaries under parentId',
        querystring: BatteryTypeCheckQuerySchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.checkTypeName(request.query);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/firmware/batteryType/add',
    {
      config: EDIT,
      schema: {
        tags: TAGS,
        summary: 'Adds a primary type, or a secondary type under the primary parentId (4004 name taken, 4005 parent not primary)',
        body: BatteryTypeAddSchema,
        response: { 200: Created },
      },
    },
    async (request) => ok(request, await service.addType(request.requireAuth(), request.language, request.body)),
  );

  app.post(
    '/api/v1/firmware/batteryType/:id/edit',
    {
      config: EDIT,
      schema: {
        tags: TAGS,
        summary: 'Renames a type (4004 name taken)',
        params: IdParams,
        body: BatteryTypeEditSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.editType(request.requireAuth(), request.params.id, request.body.name);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/firmware/batteryType/:id/move',
    {
      config: EDIT,
      schema: {
        tags: TAGS,
        summary: 'Moves a type under the primary parentId (4005 not a primary or itself, 4003 has subtypes, 4004 same name there)',
        params: IdParams,
        body: BatteryTypeMoveSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.moveType(request.requireAuth(), request.language, request.params.id, request.body.parentId);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/firmware/batteryType/:id/delete',
    {
      config: EDIT,
      schema: {
        tags: TAGS,
        summary: 'Deletes a type (4003 it has subtypes, 4006 products or images use it)',
        params: IdParams,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.deleteType(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  // ---- products ----

  app.get(
    '/api/v1/battery/products',
    {
      config: VIEW,
      schema: {
        tags: TAGS,
        summary: 'Battery products, newest first: keyword (name, manufacturer, model) and battery type filters',
        querystring: BatteryProductListQuerySchema,
        response: { 200: envelopeSchema(BatteryProductPageSchema) },
      },
    },
    async (request) => ok(request, await service.products(request.query)),
  );

  app.get(
    '/api/v1/battery/product/check',
    {
      config: VIEW,
      schema: {
        tags: TAGS,
        summary: 'Whether a product name is taken (4007); id leaves that product out',
        querystring: BatteryProductCheckQuerySchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.checkProductName(request.query.name, request.query.id);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/battery/product',
    {
      config: EDIT,
      schema: {
        tags: TAGS,
        summary: 'Creates a battery product of a secondary type (4007 name taken)',
        body: BatteryProductFieldsSchema,
        response: { 200: Created },
      },
    },
    async (request) => ok(request, await service.createProduct(request.requireAuth(), request.language, request.body)),
  );

  app.post(
    '/api/v1/battery/products/:id',
    {
      config: EDIT,
      schema: {
        tags: TAGS,
        summary: 'Updates a battery product; its images follow its name, manufacturer and type',
        params: IdParams,
        body: BatteryProductFieldsSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.updateProduct(request.requireAuth(), request.language, request.params.id, request.body);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/battery/products/:id/delete',
    {
      config: EDIT,
      schema: { tags: TAGS, summary: 'Deletes a battery product (4008 images use it)', params: IdParams, response: { 200: Done } },
    },
    async (request) => {
      await service.deleteProduct(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );
};
