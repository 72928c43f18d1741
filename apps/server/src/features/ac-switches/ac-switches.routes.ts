import {
  AcSwitchAddBodySchema,
  AcSwitchAssociateBodySchema,
  AcSwitchBindBodySchema,
  AcSwitchCheckBodySchema,
  AcSwitchCheckResultSchema,
  AcSwitchCustomersSchema,
  AcSwitchFrequencyBodySchema,
  AcSwitchImportCheckSchema,
  AcSwitchImportOneBodySchema,
  AcSwitchImportResultSchema,
  AcSwitchImportSysBodySchema,
  AcSwitchPageSchema,
  AcSwitchRowSchema,
  AcSwitchStationPageQuerySchema,
  AcSwitchSwitchBodySchema,
  AcSwitchSwitchResultSchema,
  AcSwitchSysPageQuerySchema,
  AcSwitchUnbindStationBodySchema,
} from '@sunward/contracts/ac-switches';
import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import { translate } from '@sunward/contracts/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, ok } from '../../lib/envelope.js';
import { appGate, PLATFORM_PASSES_SWITCH_GATE } from '../smart-apps/app-gate.js';
import type { SmartAppsService } from '../smart-apps/smart-apps.service.js';
import type { AcSwitchesService } from './ac-switches.service.js';

const TAGS = ['Smart AC switches'];
const IdParams = z.object({ id: IdParamSchema });
const BASE = '/api/v1/acSwitch';

/** The one file of a multipart body, and its text fields (plugins/body-parsers.ts hands files over as Buffers). */
function formOf(body: unknown): { file: Buffer | 'none' | 'many'; fields: Record<string, string> } {
  const entries = body && typeof body === 'object' ? Object.entries(body as Record<string, unknown>) : [];
  const files = entries.flatMap(([, v]) => (Array.isArray(v) ? v : [v])).filter((v): v is Buffer => Buffer.isBuffer(v));
  const fields = Object.fromEntries(entries.filter((e): e is [string, string] => typeof e[1] === 'string'));
  return { file: files.length === 0 ? 'none' : files.length === 1 && files[0] ? files[0] : 'many', fields };
}

const customerField = (fields: Record<string, string>) => {
  const value = fields.customerId;
  if (value === undefined || value === '') return undefined;
  const id = Number(value);
  if (!Number.isInteger(id) || id <= 0) throw new ApiError(Code.VALIDATION, {}, { errors: [{ field: 'customerId', message: 'integer' }] });
  return id;
};

/**
 * The smart AC switch family of spec 01 §7 (`/api/v1/acSwitch`): pages, registry, imports (.xls/.xlsx, with
 * row errors), checks, binding by SN and key, unbinding, frequency, associated user and deletion; and on/off
 * from the console over the gateway protocol (Sunward's `{id}/switch`). Every route answers 4400 unless the
 * caller's company enabled the smart switch app; the platform administrator (no company, keeper of the stock)
 * passes (docs/decisions.md "AC switches and the application centre").
 */
export const acSwitchesRoutes: FastifyPluginAsyncZod<{ service: AcSwitchesService; apps: Pick<SmartAppsService, 'require'> }> = async (
  app,
  { service, apps },
) => {
  app.addHook('onRequest', appGate(apps, 'smart_switch', PLATFORM_PASSES_SWITCH_GATE));
  const rowAnswer = { 200: envelopeSchema(AcSwitchRowSchema) };
  const done = { 200: envelopeSchema(z.null()) };

  app.get(
    `${BASE}/getPageBySys`,
    {
      config: { access: 'smart.acSwitch' },
      schema: {
        tags: TAGS,
        summary: 'The AC switches the caller sees (the platform: every switch, stock included), newest first',
        querystring: AcSwitchSysPageQuerySchema,
        response: { 200: envelopeSchema(AcSwitchPageSchema) },
      },
    },
    async (request) => ok(request, await service.pageBySys(request.requireAuth(), request.query)),
  );

  app.get(
    `${BASE}/getPageByStation`,
    {
      config: { access: 'smart.acSwitch' },
      schema: {
        tags: TAGS,
        summary: "One plant's AC switches with their state (700 when the plant is not the caller's)",
        querystring: AcSwitchStationPageQuerySchema,
        response: { 200: envelopeSchema(AcSwitchPageSchema) },
      },
    },
    async (request) => ok(request, await service.pageByStation(request.requireAuth(), request.query)),
  );

  app.get(
    `${BASE}/customer`,
    {
      config: { access: 'smart.acSwitch' },
      schema: {
        tags: TAGS,
        summary: "The customers of the caller's company a switch may be imported for or associated with",
        response: { 200: envelopeSchema(AcSwitchCustomersSchema) },
      },
    },
    async (request) => ok(request, await service.customers(request.requireAuth())),
  );

  app.post(
    `${BASE}/add`,
    {
      config: { access: { kind: 'manage', key: 'smart.acSwitch.edit' } },
      schema: {
        tags: TAGS,
        summary: "Registers one switch by SN and key in the caller's company (4421 taken); a sub switch names its master (4426)",
        body: AcSwitchAddBodySchema,
        response: rowAnswer,
      },
    },
    async (request) => ok(request, await service.add(request.requireAuth(), request.body, request.language)),
  );

  app.post(
    `${BASE}/importOne`,
    {
      config: { access: { kind: 'manage', key: 'smart.acSwitch.edit' } },
      schema: {
        tags: TAGS,
        summary: "Registers one switch for a customer of the caller's company (4429 when the account is not its customer)",
        body: AcSwitchImportOneBodySchema,
        response: rowAnswer,
      },
    },
    async (request) => ok(request, await service.importOne(request.requireAuth(), request.body, request.language)),
  );

  app.post(
    `${BASE}/importOneBySys`,
    {
      config: { access: { kind: 'manage', key: 'smart.acSwitch.edit' } },
      schema: {
        tags: TAGS,
        summary: 'The platform registers one switch into stock (no company), to be claimed with bindBySn; platform administrators only',
        body: AcSwitchImportSysBodySchema,
        response: rowAnswer,
      },
    },
    async (request) => ok(request, await service.importOneBySys(request.requireAuth(), request.body, request.language)),
  );

  const fileOf = (body: unknown, language: Parameters<typeof translate>[0]) => {
    const form = formOf(body);
    if (form.file === 'none' || form.file === 'many')
      throw new ApiError(Code.IMPORT_FILE_INVALID, { problem: translate(language, 'import.oneFile') });
    return { file: form.file, fields: form.fields };
  };

  app.post(
    `${BASE}/importBatch`,
    {
      config: { access: { kind: 'manage', key: 'smart.acSwitch.edit' } },
      schema: {
        tags: TAGS,
        summary:
          "Imports switches from one .xls/.xlsx file (columns SN, key, master SN — empty for a master) into the caller's company, for the customer in field customerId if given: good rows registered, bad rows listed with why",
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(AcSwitchImportResultSchema) },
      },
    },
    async (request) => {
      const { file, fields } = fileOf(request.body, request.language);
      return ok(request, await service.importBatch(request.requireAuth(), file, customerField(fields), request.language));
    },
  );

  app.post(
    `${BASE}/importBatchBySys`,
    {
      config: { access: { kind: 'manage', key: 'smart.acSwitch.edit' } },
      schema: {
        tags: TAGS,
        summary: 'The platform imports switches from one .xls/.xlsx file into stock; platform administrators only',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(AcSwitchImportResultSchema) },
      },
    },
    async (request) =>
      ok(request, await service.importBatchBySys(request.requireAuth(), fileOf(request.body, request.language).file, request.language)),
  );

  for (const [path, bySys] of [
    ['checkImportEquip', false],
    ['checkMultipleEquipBySys', true],
  ] as const)
    app.post(
      `${BASE}/${path}`,
      {
        config: { access: { kind: 'view', key: 'smart.acSwitch', readsOnly: 'checks an import file; nothing is stored' } },
        schema: {
          tags: TAGS,
          summary: `What importing the file would do${bySys ? ' into the platform stock' : ''}: the rows that would be registered and the refused rows with why`,
          consumes: ['multipart/form-data'],
          response: { 200: envelopeSchema(AcSwitchImportCheckSchema) },
        },
      },
      async (request) =>
        ok(request, await service.checkImport(request.requireAuth(), fileOf(request.body, request.language).file, request.language, bySys)),
    );

  app.post(
    `${BASE}/check`,
    {
      config: { access: { kind: 'view', key: 'smart.acSwitch', readsOnly: 'checks an SN and key; nothing is stored' } },
      schema: {
        tags: TAGS,
        summary: 'Whether an SN and key would bind: registered, key matching, already bound (wrong keys count toward the lock, 135)',
        body: AcSwitchCheckBodySchema,
        response: { 200: envelopeSchema(AcSwitchCheckResultSchema) },
      },
    },
    async (request) => ok(request, await service.check(request.requireAuth(), request.body)),
  );

  app.post(
    `${BASE}/bindBySn`,
    {
      config: { access: { kind: 'manage', key: 'smart.acSwitch.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Binds a switch proven by SN and key to a plant the caller manages (4422 wrong key, 4423 already bound)',
        body: AcSwitchBindBodySchema,
        response: rowAnswer,
      },
    },
    async (request) => ok(request, await service.bindBySn(request.requireAuth(), request.body)),
  );

  app.post(
    `${BASE}/:id/unbind`,
    {
      config: { access: { kind: 'manage', key: 'smart.acSwitch.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Unbinds a switch from its plant, customer and associated user (it stays registered)',
        params: IdParams,
        response: done,
      },
    },
    async (request) => {
      await service.unbind(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  app.post(
    `${BASE}/unbindStation`,
    {
      config: { access: { kind: 'manage', key: 'smart.acSwitch.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Unbinds switches from their plants (sub switches follow their master); all or none',
        body: AcSwitchUnbindStationBodySchema,
        response: done,
      },
    },
    async (request) => {
      await service.unbindStation(request.requireAuth(), request.body.ids);
      return ok(request, null);
    },
  );

  app.post(
    `${BASE}/:id/updateFrequency`,
    {
      config: { access: { kind: 'manage', key: 'smart.acSwitch.edit' } },
      schema: {
        tags: TAGS,
        summary:
          'Sets the data upload frequency in minutes (1–60), written to the switch (its report interval) when a gateway reports it; written: the switch confirmed it',
        params: IdParams,
        body: AcSwitchFrequencyBodySchema,
        response: { 200: envelopeSchema(z.object({ written: z.boolean() })) },
      },
    },
    async (request) =>
      ok(request, await service.updateFrequency(request.requireAuth(), request.params.id, request.body.frequency, request.language)),
  );

  app.post(
    `${BASE}/:id/updateAssociateUser`,
    {
      config: { access: { kind: 'manage', key: 'smart.acSwitch.edit' } },
      schema: {
        tags: TAGS,
        summary: "Sets the associated user (a customer or member of the switch's company; null clears it)",
        params: IdParams,
        body: AcSwitchAssociateBodySchema,
        response: done,
      },
    },
    async (request) => {
      await service.updateAssociateUser(request.requireAuth(), request.params.id, request.body.userId);
      return ok(request, null);
    },
  );

  app.post(
    `${BASE}/:id/delete`,
    {
      config: { access: { kind: 'manage', key: 'smart.acSwitch.delete' } },
      schema: {
        tags: TAGS,
        summary: 'Deletes a switch (4424 while bound to a plant, 4425 while a master has sub switches)',
        params: IdParams,
        response: done,
      },
    },
    async (request) => {
      await service.remove(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  app.post(
    `${BASE}/:id/switch`,
    {
      config: { access: { kind: 'operate', key: 'smart.acSwitch.control' } },
      schema: {
        tags: TAGS,
        summary:
          'Switches on or off over the gateway protocol and answers what the switch confirms (password again, 708 wrong; 4427 off locally; 4428 not reporting; 603 offline; 1 no reply)',
        params: IdParams,
        body: AcSwitchSwitchBodySchema,
        response: { 200: envelopeSchema(AcSwitchSwitchResultSchema) },
      },
    },
    async (request) => ok(request, await service.switchPower(request.requireAuth(), request.params.id, request.body, request.language)),
  );
};
