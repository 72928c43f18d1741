import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import {
  ConnectionPasswordBodySchema,
  DigitalOutputBodySchema,
  GatewayAliasBodySchema,
  GatewayCountsSchema,
  GatewayDetailSchema,
  GatewayImportResultSchema,
  GatewayListQuerySchema,
  GatewayPageSchema,
  GatewayRefusalsSchema,
  GatewayRegisterBodySchema,
  GatewayRegisterResultSchema,
  GatewayReplaceBodySchema,
  GatewayReplaceResultSchema,
  GatewaySettingsSchema,
  ServerAddressBodySchema,
  ServerAddressSchema,
} from '@sunward/contracts/gateways';
import { IdParamSchema } from '@sunward/contracts/ids';
import { translate } from '@sunward/contracts/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, ok } from '../../lib/envelope.js';
import type { GatewaysService } from './gateways.service.js';

const TAGS = ['Gateways'];
const SnParams = z.object({ sn: z.string().min(1).max(64) });
const IdParams = z.object({ id: IdParamSchema });

/** The one file of a multipart body (plugins/body-parsers.ts hands files over as Buffers). */
function singleFile(body: unknown): Buffer | 'none' | 'many' {
  const values = body && typeof body === 'object' ? Object.values(body as Record<string, unknown>) : [];
  const files = values.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v): v is Buffer => Buffer.isBuffer(v));
  if (files.length === 0) return 'none';
  return files.length === 1 && files[0] ? files[0] : 'many';
}

/**
 * The gateways family of spec 01 §7 (list, counts, one gateway, alias, import, replacement, deletion)
 * and the gateway service address with the other settings applied over the protocol.
 */
export const gatewaysRoutes: FastifyPluginAsyncZod<{ service: GatewaysService }> = async (app, { service }) => {
  app.get(
    '/api/v1/gateways',
    {
      config: { access: 'gateway.view' },
      schema: {
        tags: TAGS,
        summary: 'Gateways the caller sees: search by SN or alias, plant, online status, lock; sorted and paged in the database',
        querystring: GatewayListQuerySchema,
        response: { 200: envelopeSchema(GatewayPageSchema) },
      },
    },
    async (request) => ok(request, await service.list(request.requireAuth(), request.query)),
  );

  app.get(
    '/api/v1/gateways/count',
    {
      config: { access: 'gateway.view' },
      schema: {
        tags: TAGS,
        summary: 'Online, offline and total gateways the caller sees (same filters as the list, status aside)',
        querystring: GatewayListQuerySchema.omit({ page: true, size: true, sort: true, order: true, status: true }),
        response: { 200: envelopeSchema(GatewayCountsSchema) },
      },
    },
    async (request) => ok(request, await service.counts(request.requireAuth(), request.query)),
  );

  app.post(
    '/api/v1/gateways',
    {
      config: { access: { kind: 'manage', key: 'gateway.import' } },
      schema: {
        tags: TAGS,
        summary:
          "Registers one gateway, or up to 1,000 in `gateways`, with the import's rules; each key (given or generated) is answered this once",
        description:
          'The same rules as the spreadsheet import: SN 2–32 letters, digits, - or _; key 1–64 characters without spaces or special characters ' +
          '(omitted: 16 hex characters generated); alias at most 32 bytes without special characters. One gateway: refused with ' +
          'code 301 when its SN is registered, code 4 with the field otherwise. A list: every entry answered, registered or in `errors` ' +
          "(index in the list, problem code, text in the caller's language). Gateways are registered unbound in the caller's company. " +
          'The gateway then connects with its SN and key (docs/gateway-protocol.md).',
        body: GatewayRegisterBodySchema.meta({
          examples: [
            { sn: 'GW1000001', alias: 'Roof east' },
            { gateways: [{ sn: 'GW1000002', key: '3f9a0c12be7d4e65' }, { sn: 'GW1000003' }] },
          ],
        }),
        response: {
          200: envelopeSchema(
            GatewayRegisterResultSchema.meta({
              examples: [
                {
                  registered: [
                    { id: 41, sn: 'GW1000002', key: '3f9a0c12be7d4e65', generated: false },
                    { id: 42, sn: 'GW1000003', key: 'b61c0e9f2a7d4413', generated: true },
                  ],
                  errors: [{ index: 2, sn: 'GW1000001', problem: 'alreadyRegistered', message: 'This gateway is already registered' }],
                },
              ],
            }),
          ),
        },
      },
    },
    async (request) => ok(request, await service.register(request.requireAuth(), request.body, request.language)),
  );

  app.post(
    '/api/v1/gateways/import',
    {
      config: { access: { kind: 'manage', key: 'gateway.import' } },
      schema: {
        tags: TAGS,
        summary:
          'Imports gateways from one .xls/.xlsx file (columns SN, registration key, alias): good rows registered, bad rows listed with why',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(GatewayImportResultSchema) },
      },
    },
    async (request) => {
      const file = singleFile(request.body);
      if (file === 'none' || file === 'many')
        throw new ApiError(Code.IMPORT_FILE_INVALID, { problem: translate(request.language, 'import.oneFile') });
      return ok(request, await service.importFile(request.requireAuth(), file, request.language));
    },
  );

  app.get(
    '/api/v1/gateway/:sn',
    {
      config: { access: 'gateway.view' },
      schema: {
        tags: TAGS,
        summary: 'One gateway with its devices (305 when the caller may not see it)',
        params: SnParams,
        response: { 200: envelopeSchema(GatewayDetailSchema) },
      },
    },
    async (request) => ok(request, await service.detail(request.requireAuth(), request.params.sn)),
  );

  app.get(
    '/api/v1/gateway/:id/refusals',
    {
      config: { access: 'gateway.view' },
      schema: {
        tags: TAGS,
        summary:
          "The gateway's newest refused reports, command replies and logins with their reasons (docs/gateway-protocol.md), and how many in the last 24 hours",
        params: IdParams,
        response: { 200: envelopeSchema(GatewayRefusalsSchema) },
      },
    },
    async (request) => ok(request, await service.refusals(request.requireAuth(), request.params.id)),
  );

  app.post(
    '/api/v1/gateway/:id/alias',
    {
      config: { access: { kind: 'manage', key: 'gateway.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Renames a gateway (at most 32 bytes of UTF-8, no special characters; empty clears it)',
        params: IdParams,
        body: GatewayAliasBodySchema,
      },
    },
    async (request) => {
      await service.setAlias(request.requireAuth(), request.params.id, request.body.alias, request.language);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/gateway/:id/replace',
    {
      config: { access: { kind: 'manage', key: 'gateway.replace' } },
      schema: {
        tags: TAGS,
        summary: 'Replaces a gateway by another (new SN and key): it takes the plant, alias and devices; history stays with the devices',
        params: IdParams,
        body: GatewayReplaceBodySchema,
        response: { 200: envelopeSchema(GatewayReplaceResultSchema) },
      },
    },
    async (request) => ok(request, await service.replace(request.requireAuth(), request.params.id, request.body, request.language)),
  );

  app.post(
    '/api/v1/gateway/:id/delete',
    {
      config: { access: { kind: 'manage', key: 'gateway.delete' } },
      schema: {
        tags: TAGS,
        summary: 'Deletes a gateway the caller manages; one bound to a plant is refused (unbind it from the plant first)',
        params: IdParams,
      },
    },
    async (request) => {
      await service.remove(request.requireAuth(), request.params.id, request.language);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/gateway/:id/serverAddress',
    {
      config: { access: 'gateway.view' },
      schema: {
        tags: TAGS,
        summary: 'The server address (host and port) the gateway last confirmed',
        params: IdParams,
        response: { 200: envelopeSchema(ServerAddressSchema) },
      },
    },
    async (request) => ok(request, await service.serverAddress(request.requireAuth(), request.params.id)),
  );

  const settingResponse = { 200: envelopeSchema(GatewaySettingsSchema) };

  app.post(
    '/api/v1/gateway/:id/serverAddress',
    {
      config: { access: { kind: 'manage', key: 'gateway.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Changes the server address over the protocol; 306 when the gateway is offline, 307 when it does not confirm in time',
        params: IdParams,
        body: ServerAddressBodySchema,
        response: settingResponse,
      },
    },
    async (request) =>
      ok(
        request,
        await service.setServerAddress(request.requireAuth(), request.params.id, request.body.host, request.body.port, request.language),
      ),
  );

  for (const [path, locked] of [
    ['lock', true],
    ['unlock', false],
  ] as const)
    app.post(
      `/api/v1/gateway/:id/${path}`,
      {
        config: { access: { kind: 'manage', key: 'gateway.edit' } },
        schema: {
          tags: TAGS,
          summary: `${locked ? 'Locks' : 'Unlocks'} a gateway over the protocol (a locked gateway refuses configuration); 306 offline, 307 no reply`,
          params: IdParams,
          response: settingResponse,
        },
      },
      async (request) => ok(request, await service.setLocked(request.requireAuth(), request.params.id, locked, request.language)),
    );

  app.post(
    '/api/v1/gateway/:id/digitalOutput',
    {
      config: { access: { kind: 'manage', key: 'gateway.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Switches the gateway’s digital output on or off over the protocol; 306 offline, 307 no reply',
        params: IdParams,
        body: DigitalOutputBodySchema,
        response: settingResponse,
      },
    },
    async (request) =>
      ok(request, await service.setDigitalOutput(request.requireAuth(), request.params.id, request.body.on, request.language)),
  );

  app.post(
    '/api/v1/gateway/:id/connectionPassword',
    {
      config: { access: { kind: 'manage', key: 'gateway.edit' } },
      schema: {
        tags: TAGS,
        summary:
          'Sets the Wi-Fi/Bluetooth connection password (8–24 with upper, lower and digits) over the protocol; only the time is kept',
        params: IdParams,
        body: ConnectionPasswordBodySchema,
        response: settingResponse,
      },
    },
    async (request) =>
      ok(request, await service.setConnectionPassword(request.requireAuth(), request.params.id, request.body.password, request.language)),
  );
};
