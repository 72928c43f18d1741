import {
  CommandBodySchema,
  CommandLogPageSchema,
  CommandLogQuerySchema,
  CommandResultSchema,
  DebugRequestSchema,
  ParamsWriteSchema,
  SettingSupportSchema,
  WritableParamSchema,
} from '@sunward/contracts/commands';
import { envelopeSchema } from '@sunward/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { CommandsService } from './commands.service.js';

const TAGS = ['Remote operation'];
const SnParams = z.object({ sn: z.string().min(1).max(64) });
const Result = envelopeSchema(CommandResultSchema);

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
        config: { access: 'inverter.control' },
        schema: { tags: TAGS, summary, params: SnParams, body: CommandBodySchema, response: { 200: Result } },
      },
      async (request) => ok(request, await run(request, request.params.sn, request.body ?? {})),
    );
    app.get(
      `/api/v1/inverter/:sn/${op}`,
      {
        config: { access: 'inverter.control' },
        schema: {
          tags: TAGS,
          summary: `${summary} (GET as the spec writes it: key and password in headers)`,
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
      config: { access: 'inverter.setting' },
      schema: {
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
      config: { access: 'inverter.setting' },
      schema: {
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
      config: { access: 'inverter.setting' },
      schema: {
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
      config: { access: 'inverter.debug' },
      schema: {
        tags: TAGS,
        summary: 'A raw Modbus read (01–04) or write (05/06/15/16, password needed) through the gateway; the reply decoded',
        params: SnParams,
        body: DebugRequestSchema,
        response: { 200: Result },
      },
    },
    async (request) => ok(request, await service.debug(request.requireAuth(), request.language, request.params.sn, request.body)),
  );

  const ReplyQuery = z.object({ commandId: z.coerce.number().int().positive() });
  for (const method of ['GET', 'POST'] as const)
    app.route({
      method,
      url: '/api/v1/inverter/:sn/debug/reply',
      config: { access: 'inverter.debug' },
      schema: {
        tags: TAGS,
        summary: 'The stored result of a debug command (also a reply that came after the timeout)',
        params: SnParams,
        querystring: ReplyQuery,
      },
      handler: async (request) => ok(request, await service.reply(request.requireAuth(), request.params.sn, request.query.commandId)),
    });

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
      const auth = request.requireAuth();
      const { page, size, sn, op } = request.query;
      return ok(
        request,
        await service.log({ companyId: auth.companyId, all: auth.roleKey === 'platform_admin', userId: auth.userId, sn, op }, page, size),
      );
    },
  );
};
