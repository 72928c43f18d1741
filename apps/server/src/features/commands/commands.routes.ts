import { Code } from '@sunward/contracts/codes';
import {
  BatchUpgradeBodySchema,
  BatchUpgradeCheckSchema,
  BatchUpgradeResultSchema,
  CommandBodySchema,
  CommandLogPageSchema,
  CommandLogQuerySchema,
  CommandResultSchema,
  DebugRequestSchema,
  ParamsWriteSchema,
  SETTINGS_FAMILIES,
  SettingSupportSchema,
  SettingsDevicePageSchema,
  SettingsDevicesQuerySchema,
  SettingsWriteSchema,
  UpgradeProgressSchema,
  WritableParamSchema,
} from '@sunward/contracts/commands';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema, IdSchema } from '@sunward/contracts/ids';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendDownload, XLSX_TYPE } from '../../lib/download.js';
import { ApiError, ok } from '../../lib/envelope.js';
import { upgradeRecordsWorkbook } from './command-export.js';
import { type CommandsService, commandLogScope } from './commands.service.js';

const TAGS = ['Remote operation'];
/** Spec 01 §9: exports stop at 20,000 rows (706 above). */
const EXPORT_ROWS_MAX = 20_000;

const SnParams = z.object({ sn: z.string().min(1).max(64) });
const Result = envelopeSchema(CommandResultSchema);
/** The business codes of a command sent to a device (the document lists them per operation, `x-codes`). */
const SENT = [Code.DEVICE_OFFLINE, Code.DEVICE_UPGRADING, Code.COMMAND_CAP_REACHED, Code.TIMEOUT];
const INVERTER_COMMAND = [Code.INVERTER_NOT_FOUND, Code.CONFIRM_PASSWORD_WRONG, ...SENT];
const UPGRADE = [Code.CONFIRM_PASSWORD_WRONG, Code.FIRMWARE_ALREADY_LATEST, Code.FIRMWARE_INCOMPATIBLE, ...SENT];

/** Spec 01 §7 writes boot and shutdown as GET: those read the key and password from headers, never the query string. */
const HeaderBody = z.object({
  'idempotency-key': z.string().max(64).optional(),
  'x-confirm-password': z.string().max(200).optional(),
});

export interface CommandsRoutesOptions {
  service: CommandsService;
}

/**
 * Remote operation of inverters (spec 01 §7): boot, shutdown, custom parameters, the setting support
 * question, the remote debug console and its replies, and the command log.
 */
export const commandsRoutes: FastifyPluginAsyncZod<CommandsRoutesOptions> = async (app, { service }) => {
  for (const op of ['boot', 'shutdown'] as const) {
    const summary =
      op === 'boot'
        ? 'Switches an inverter on (its gateway confirms); idempotency key optional'
        : 'Switches an inverter off; needs the user’s password again (708), refused offline (603) or upgrading (604)';
    const run = (
      request: { requireAuth: () => Parameters<CommandsService['boot']>[0]; language: Parameters<CommandsService['boot']>[1] },
      sn: string,
      body: z.infer<typeof CommandBodySchema>,
    ) =>
      op === 'boot'
        ? service.boot(request.requireAuth(), request.language, sn, body)
        : service.shutdown(request.requireAuth(), request.language, sn, body);
    app.post(
      `/api/v1/inverter/:sn/${op}`,
      {
        config: { access: { kind: 'operate', key: 'inverter.control' } },
        schema: { tags: TAGS, summary, 'x-codes': INVERTER_COMMAND, params: SnParams, body: CommandBodySchema, response: { 200: Result } },
      },
      async (request) => ok(request, await run(request, request.params.sn, request.body ?? {})),
    );
    app.get(
      `/api/v1/inverter/:sn/${op}`,
      {
        config: { access: { kind: 'operate', key: 'inverter.control' } },
        schema: {
          tags: TAGS,
          summary: `${summary} (GET as the spec writes it: key and password in headers)`,
          'x-codes': INVERTER_COMMAND,
          params: SnParams,
          headers: HeaderBody,
          response: { 200: Result },
        },
      },
      async (request) =>
        ok(
          request,
          await run(request, request.params.sn, {
            idempotencyKey: request.headers['idempotency-key'],
            password: request.headers['x-confirm-password'],
          }),
        ),
    );
  }

  app.get(
    '/api/v1/inverter/:sn/custom/params',
    {
      config: { access: { kind: 'operate', key: 'inverter.setting' } },
      schema: {
        'x-codes': [Code.INVERTER_NOT_FOUND, Code.SETTING_NOT_SUPPORTED],
        tags: TAGS,
        summary: 'The inverter’s writable parameters with their values, ranges and choices',
        params: SnParams,
        response: { 200: envelopeSchema(z.array(WritableParamSchema)) },
      },
    },
    async (request) => ok(request, await service.params(request.requireAuth(), request.language, request.params.sn)),
  );

  app.post(
    '/api/v1/inverter/:sn/custom/params',
    {
      config: { access: { kind: 'operate', key: 'inverter.setting' } },
      schema: {
        'x-codes': [Code.SETTING_NOT_SUPPORTED, Code.AC_SWITCH_LIMIT_PAIR, ...INVERTER_COMMAND],
        tags: TAGS,
        summary: 'Writes parameters (ranges checked first), then confirms them from the device’s reply; password needed',
        params: SnParams,
        body: ParamsWriteSchema,
        response: { 200: Result },
      },
    },
    async (request) => ok(request, await service.writeParams(request.requireAuth(), request.language, request.params.sn, request.body)),
  );

  app.get(
    '/api/v1/setting/:sn/support',
    {
      config: { access: { kind: 'operate', key: 'inverter.setting' } },
      schema: {
        'x-codes': [Code.INVERTER_NOT_FOUND, Code.SETTING_NOT_SUPPORTED],
        tags: TAGS,
        summary: 'Which settings the model supports (601 when none)',
        params: SnParams,
        response: { 200: envelopeSchema(SettingSupportSchema) },
      },
    },
    async (request) => ok(request, await service.support(request.requireAuth(), request.params.sn)),
  );

  app.post(
    '/api/v1/inverter/:sn/debug',
    {
      config: { access: { kind: 'operate', key: 'inverter.debug' } },
      schema: {
        'x-codes': INVERTER_COMMAND,
        tags: TAGS,
        summary: 'A raw Modbus read (01–04) or write (05/06/15/16, password needed) through the gateway; the reply decoded',
        params: SnParams,
        body: DebugRequestSchema,
        response: { 200: Result },
      },
    },
    async (request) => ok(request, await service.debug(request.requireAuth(), request.language, request.params.sn, request.body)),
  );

  const ReplyQuery = z.object({ commandId: IdParamSchema });
  for (const method of ['GET', 'POST'] as const)
    app.route({
      method,
      url: '/api/v1/inverter/:sn/debug/reply',
      config: { access: { kind: 'operate', key: 'inverter.debug' } },
      schema: {
        tags: TAGS,
        summary: 'The stored result of a debug command (also a reply that came after the timeout)',
        'x-codes': [Code.NOT_FOUND],
        params: SnParams,
        querystring: ReplyQuery,
      },
      handler: async (request) => ok(request, await service.reply(request.requireAuth(), request.params.sn, request.query.commandId)),
    });

  app.post(
    '/api/v1/inverter/:sn/upgrade',
    {
      config: { access: { kind: 'operate', key: 'inverter.upgrade' } },
      schema: {
        'x-codes': [Code.INVERTER_NOT_FOUND, ...UPGRADE],
        tags: TAGS,
        summary: 'Upgrades an inverter with a firmware record (firmId; method remote); answers pending, progress follows',
        params: SnParams,
        querystring: z.object({ firmId: IdParamSchema.optional(), method: z.string().max(16).optional() }),
        body: CommandBodySchema.extend({ firmId: IdSchema.optional() }),
        response: { 200: Result },
      },
    },
    async (request) => {
      // The spec passes firmId and method in the query; the console sends firmId in the body.
      const firmId = request.body?.firmId ?? request.query.firmId ?? 0;
      return ok(request, await service.upgrade(request.requireAuth(), request.language, request.params.sn, { ...request.body, firmId }));
    },
  );

  app.post(
    '/api/v1/inverter/batchUpgrade',
    {
      config: { access: { kind: 'operate', key: 'inverter.upgrade' } },
      schema: {
        'x-codes': [Code.CONFIRM_PASSWORD_WRONG],
        tags: TAGS,
        summary: 'Upgrades several inverters with one image: password once; each device started or listed with why not',
        body: CommandBodySchema.extend({ sns: z.array(z.string().min(1).max(64)).min(1).max(500), firmId: IdSchema }),
        response: { 200: envelopeSchema(BatchUpgradeResultSchema) },
      },
    },
    async (request) => ok(request, await service.batchUpgrade(request.requireAuth(), request.language, request.body)),
  );

  app.post(
    '/api/v1/battery/:sn/upgrade',
    {
      config: { access: { kind: 'operate', key: 'battery.upgrade' } },
      schema: {
        'x-codes': [Code.DEVICE_NOT_FOUND, Code.BATTERY_SLAVE, ...UPGRADE],
        tags: TAGS,
        summary: 'Upgrades a battery (master pack; a slave answers 605) with a battery firmware record (firmId); answers pending',
        params: SnParams,
        querystring: z.object({ firmId: IdParamSchema.optional() }),
        body: CommandBodySchema.extend({ firmId: IdSchema.optional() }),
        response: { 200: Result },
      },
    },
    async (request) => {
      const firmId = request.body?.firmId ?? request.query.firmId ?? 0;
      return ok(
        request,
        await service.upgrade(request.requireAuth(), request.language, request.params.sn, { ...request.body, firmId }, 'battery'),
      );
    },
  );

  app.post(
    '/api/v1/battery/batchUpgrade/check',
    {
      config: { access: { kind: 'operate', key: 'battery.upgrade' } },
      schema: {
        tags: TAGS,
        summary: 'Which batteries can take the image now, and why the others cannot (nothing is sent)',
        body: BatchUpgradeBodySchema.omit({ idempotencyKey: true, password: true }),
        response: { 200: envelopeSchema(BatchUpgradeCheckSchema) },
      },
    },
    async (request) => ok(request, await service.batchUpgradeCheck(request.requireAuth(), request.language, request.body, 'battery')),
  );

  app.post(
    '/api/v1/battery/batchUpgrade',
    {
      config: { access: { kind: 'operate', key: 'battery.upgrade' } },
      schema: {
        'x-codes': [Code.CONFIRM_PASSWORD_WRONG],
        tags: TAGS,
        summary: 'Upgrades several batteries with one image: password once; each started or listed with why not',
        body: BatchUpgradeBodySchema,
        response: { 200: envelopeSchema(BatchUpgradeResultSchema) },
      },
    },
    async (request) => ok(request, await service.batchUpgrade(request.requireAuth(), request.language, request.body, 'battery')),
  );

  app.post(
    '/api/v1/gateway/:sn/upgrade',
    {
      config: { access: { kind: 'manage', key: 'gateway.edit' } },
      schema: {
        'x-codes': [Code.GATEWAY_NOT_FOUND, ...UPGRADE],
        tags: TAGS,
        summary: 'Upgrades a gateway with a gateway firmware record; an offline gateway is upgraded once it is online (queued)',
        params: SnParams,
        body: CommandBodySchema.extend({ firmId: IdSchema }),
        response: { 200: Result },
      },
    },
    async (request) =>
      ok(request, await service.upgrade(request.requireAuth(), request.language, request.params.sn, request.body, 'gateway')),
  );

  app.get(
    '/api/v1/gateway/:sn/upgrade/progress',
    {
      config: { access: 'gateway.view' },
      schema: {
        'x-codes': [Code.GATEWAY_NOT_FOUND],
        tags: TAGS,
        summary: 'The gateway’s latest upgrade: waiting (offline), upgrading, successful, failed or cancelled; null when none',
        params: SnParams,
        response: { 200: envelopeSchema(UpgradeProgressSchema.nullable()) },
      },
    },
    async (request) => ok(request, await service.upgradeProgress(request.requireAuth(), request.params.sn, 'gateway')),
  );

  app.get(
    '/api/v1/inverter/:sn/upgrade/progress',
    {
      config: { access: 'inverter.view' },
      schema: {
        'x-codes': [Code.INVERTER_NOT_FOUND],
        tags: TAGS,
        summary: 'The inverter’s (or battery’s) latest upgrade: upgrading (with progress), successful, failed or cancelled; null when none',
        params: SnParams,
        response: { 200: envelopeSchema(UpgradeProgressSchema.nullable()) },
      },
    },
    async (request) => ok(request, await service.upgradeProgress(request.requireAuth(), request.params.sn)),
  );

  app.post(
    '/api/v1/inverter/:sn/cutUpgrade',
    {
      config: { access: { kind: 'operate', key: 'inverter.upgrade' } },
      schema: {
        tags: TAGS,
        summary: 'Cancels a running upgrade where the model supports it',
        params: SnParams,
        body: CommandBodySchema,
        response: { 200: Result },
      },
    },
    async (request) =>
      ok(request, await service.cutUpgrade(request.requireAuth(), request.language, request.params.sn, request.body ?? {})),
  );

  // The setting pages' list (/device/setting, /device/batt-setting and their plant forms).
  app.get(
    '/api/v1/settings/devices',
    {
      config: { access: { kind: 'operate', key: 'inverter.setting' } },
      schema: {
        tags: TAGS,
        summary: 'Devices of the caller’s plants with the settings families of a page’s scope, their forms and current values',
        querystring: SettingsDevicesQuerySchema,
        response: { 200: envelopeSchema(SettingsDevicePageSchema) },
      },
    },
    async (request) => ok(request, await service.settingsDevices(request.requireAuth(), request.language, request.query)),
  );

  // Device settings families (spec 01 §7): read with GET ?sn=, written with POST; 601 where the model lacks one.
  for (const family of SETTINGS_FAMILIES) {
    app.get(
      `/api/v1/${family}`,
      {
        config: { access: { kind: 'operate', key: 'inverter.setting' } },
        schema: {
          tags: TAGS,
          summary: `The ${family} settings form of a device (points, values, ranges); 601 when its model has none`,
          'x-codes': [Code.DEVICE_NOT_FOUND, Code.SETTING_NOT_SUPPORTED],
          querystring: z.object({ sn: z.string().min(1).max(64) }),
          response: { 200: envelopeSchema(z.array(WritableParamSchema)) },
        },
      },
      async (request) => ok(request, await service.readFamily(request.requireAuth(), request.language, family, request.query.sn)),
    );
    app.post(
      `/api/v1/${family}`,
      {
        config: { access: { kind: 'operate', key: 'inverter.setting' } },
        schema: {
          tags: TAGS,
          summary: `Writes the ${family} settings of a device (ranges checked, password needed) and confirms them`,
          'x-codes': [Code.DEVICE_NOT_FOUND, Code.SETTING_NOT_SUPPORTED, Code.CONFIRM_PASSWORD_WRONG, Code.AC_SWITCH_LIMIT_PAIR, ...SENT],
          body: SettingsWriteSchema,
          response: { 200: Result },
        },
      },
      async (request) => ok(request, await service.writeFamily(request.requireAuth(), request.language, family, request.body)),
    );
  }

  app.get(
    '/api/v1/commands',
    {
      config: { access: 'logger.management' },
      schema: {
        tags: TAGS,
        summary: 'The command log: who sent what to which device, when, and the result',
        querystring: CommandLogQuerySchema,
        response: { 200: envelopeSchema(CommandLogPageSchema) },
      },
    },
    async (request) => {
      const { page, size, ...filters } = request.query;
      return ok(request, await service.log(commandLogScope(request.requireAuth(), filters), page, size));
    },
  );

  app.get(
    '/api/v1/commands/export',
    {
      config: { access: 'logger.upgrade.record' },
      schema: {
        'x-codes': [Code.TOO_MANY_RECORDS],
        tags: TAGS,
        summary: 'The upgrade records under the page’s filters as .xlsx (at most 20,000 rows, newest first)',
        querystring: CommandLogQuerySchema.omit({ page: true, size: true }),
      },
    },
    async (request, reply) => {
      const filters = { ...request.query, op: 'upgrade' };
      const { infos, total } = await service.log(commandLogScope(request.requireAuth(), filters), 1, EXPORT_ROWS_MAX);
      if (total > EXPORT_ROWS_MAX) throw new ApiError(Code.TOO_MANY_RECORDS, { count: total, max: EXPORT_ROWS_MAX });
      const bytes = await upgradeRecordsWorkbook(infos, request.language);
      return sendDownload(reply, { type: XLSX_TYPE, fileName: `upgrade-records-${new Date().toISOString().slice(0, 10)}.xlsx`, bytes });
    },
  );
};
