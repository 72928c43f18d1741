import { Code } from '@sunward/contracts/codes';
import { CommandResultSchema } from '@sunward/contracts/commands';
import {
  DaySeriesSchema,
  DayQuerySchema as DeviceDayQuerySchema,
  type DeviceKind,
  DeviceRealtimeSchema,
  DeviceRowSchema,
} from '@sunward/contracts/devices';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import type { Language } from '@sunward/contracts/languages';
import {
  ApiKeyCreatedSchema,
  ApiKeyCreateSchema,
  ApiKeyRowSchema,
  OpenCommandSchema,
  OpenParamsCommandSchema,
  WebhookCreatedSchema,
  WebhookCreateSchema,
  WebhookDeliverySchema,
  WebhookRowSchema,
} from '@sunward/contracts/open-api';
import {
  DayQuerySchema,
  EnergyBarsSchema,
  EventsQuerySchema,
  MonthQuerySchema,
  PlantEventPageSchema,
  PlantRealtimeSchema,
  PowerDaySchema,
  YearQuerySchema,
} from '@sunward/contracts/plant-energy';
import { PlantDetailSchema, PlantRowSchema } from '@sunward/contracts/plants';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { type KeyPrincipal, keyPrefixOf, type OpenApiService } from './open-api.service.js';
import type { WebhooksService } from './webhooks.service.js';

const TAGS = ['Open API: keys and webhooks'];
const OPEN_TAGS = ['Open plant API v1'];
const IdParams = z.object({ id: IdParamSchema });
const SnParams = z.object({ sn: z.string().min(1).max(64) });
const WINDOW_MS = 60_000;
/** The key travels as a bearer token: documented as such, although the route's access is checked by the feature. */
const OPEN_SECURITY = [{ bearer: [] }];
/** The business codes of the open routes (the document lists them per operation). */
const KEY_CODES = [Code.API_KEY_INVALID, Code.API_KEY_EXPIRED];
const PLANT_CODES = [...KEY_CODES, Code.PLANT_NOT_FOUND];
const DEVICE_CODES = [...KEY_CODES, Code.DEVICE_NOT_FOUND];
const COMMAND_CODES = [
  ...DEVICE_CODES,
  Code.NO_PERMISSION,
  Code.DEVICE_OFFLINE,
  Code.DEVICE_UPGRADING,
  Code.COMMAND_CAP_REACHED,
  Code.TIMEOUT,
];

/** The console's side (issue 25): API keys and the company's webhooks, with their delivery log. */
export const openApiConsoleRoutes: FastifyPluginAsyncZod<{ service: OpenApiService; webhooks: WebhooksService }> = async (
  app,
  { service, webhooks },
) => {
  app.get(
    '/api/v1/openApi/keys',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        operationId: 'listApiKeys',
        summary: 'API keys the caller made (a company administrator also sees the company members’ keys), newest first',
        response: { 200: envelopeSchema(z.array(ApiKeyRowSchema)) },
      },
    },
    async (request) => ok(request, await service.list(request.requireAuth())),
  );

  app.post(
    '/api/v1/openApi/keys',
    {
      config: { access: { kind: 'manage', key: 'station.edit' } },
      schema: {
        tags: TAGS,
        operationId: 'createApiKey',
        'x-codes': [Code.PLANT_NOT_FOUND, Code.API_KEY_LIMIT],
        summary: 'Creates an API key; the key is answered this once',
        description:
          "Scope 'all' (every plant the creator sees at each use: company administrators and owners outside a company; 2 otherwise) or chosen plants the caller manages (700 otherwise); 'read' or 'operator'; 4322 at the most active keys.",
        body: ApiKeyCreateSchema,
        response: { 200: envelopeSchema(ApiKeyCreatedSchema) },
      },
    },
    async (request) => ok(request, await service.create(request.requireAuth(), request.body)),
  );

  app.post(
    '/api/v1/openApi/keys/:id/revoke',
    {
      config: { access: { kind: 'manage', key: 'station.edit' } },
      schema: {
        tags: TAGS,
        operationId: 'revokeApiKey',
        'x-codes': [Code.API_KEY_INVALID],
        summary: 'Revokes an API key at once (its creator, or the administrator of its company; 4320 for anyone else)',
        params: IdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.revoke(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/openApi/webhooks',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        operationId: 'listWebhooks',
        summary: "The company's webhooks with their delivery counts (empty outside a company)",
        response: { 200: envelopeSchema(z.array(WebhookRowSchema)) },
      },
    },
    async (request) => ok(request, await webhooks.list(request.requireAuth())),
  );

  app.post(
    '/api/v1/openApi/webhooks',
    {
      config: { access: { kind: 'manage', key: 'company.edit' } },
      schema: {
        tags: TAGS,
        operationId: 'createWebhook',
        'x-codes': [Code.WEBHOOK_LIMIT, Code.WEBHOOK_URL_REFUSED],
        summary: 'Adds a webhook to the caller’s company (its administrator; 2 otherwise); the signing secret is answered this once',
        description:
          'Deliveries are POSTed as JSON with the Sunward-Signature header (docs/open-api.md); 4323 at the most webhooks; 4325 when the address is, or resolves to, a private, loopback, link-local or other non-public address (unless the server sets WEBHOOK_ALLOW_PRIVATE).',
        body: WebhookCreateSchema,
        response: { 200: envelopeSchema(WebhookCreatedSchema) },
      },
    },
    async (request) => ok(request, await webhooks.create(request.requireAuth(), request.body)),
  );

  app.post(
    '/api/v1/openApi/webhooks/:id/delete',
    {
      config: { access: { kind: 'manage', key: 'company.edit' } },
      schema: {
        tags: TAGS,
        operationId: 'deleteWebhook',
        'x-codes': [Code.WEBHOOK_NOT_FOUND],
        summary: 'Deletes a webhook of the caller’s company; its pending deliveries stop (4324 when not the company’s)',
        params: IdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await webhooks.remove(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/openApi/webhooks/:id/deliveries',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        operationId: 'listWebhookDeliveries',
        'x-codes': [Code.WEBHOOK_NOT_FOUND],
        summary: 'The latest deliveries of a webhook of the caller’s company: status, tries, answer, next try',
        params: IdParams,
        response: { 200: envelopeSchema(z.array(WebhookDeliverySchema)) },
      },
    },
    async (request) => ok(request, await webhooks.deliveries(request.requireAuth(), request.params.id)),
  );
};

export interface OpenV1Options {
  service: OpenApiService;
  /** The console's own functions the surface answers with (plant overview, plant detail, device pages). */
  console: {
    plantDetail(auth: AuthContext, plantId: number): Promise<z.infer<typeof PlantDetailSchema>>;
    realtime(plantId: number): Promise<z.infer<typeof PlantRealtimeSchema>>;
    powerDay(plantId: number, date: string | undefined): Promise<z.infer<typeof PowerDaySchema>>;
    powerMonth(plantId: number, month: string | undefined): Promise<z.infer<typeof EnergyBarsSchema>>;
    powerYear(plantId: number, year: number | undefined): Promise<z.infer<typeof EnergyBarsSchema>>;
    events(plantId: number, page: number, size: number, language: Language): Promise<z.infer<typeof PlantEventPageSchema>>;
    deviceRow(auth: AuthContext, kind: DeviceKind, sn: string, language: Language): Promise<z.infer<typeof DeviceRowSchema>>;
    deviceRealtime(auth: AuthContext, kind: DeviceKind, sn: string, language: Language): Promise<z.infer<typeof DeviceRealtimeSchema>>;
    deviceDay(
      auth: AuthContext,
      kind: DeviceKind,
      sn: string,
      language: Language,
      range: z.infer<typeof DeviceDayQuerySchema>,
    ): Promise<z.infer<typeof DaySeriesSchema>>;
  };
}

const KEY_DESCRIPTION =
  'Authorization: Bearer sw_<prefix>_<secret> (an API key). 4320 missing, unknown or revoked key, 4321 expired (HTTP 401); 429 past the key’s quota (RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset on every answer).';

/**
 * The open plant API, version 1 (issue 25): read-only keys read plants, devices, realtime figures, energy, curves
 * and events of their plants; operator keys also send commands. Every answer comes from the console's own
 * functions, so the figures are the console's; a plant outside the key's scope answers 700 and a device 602,
 * as the console answers for plants that are not the caller's. Each key has its quota per minute.
 */
export const openV1Routes: FastifyPluginAsyncZod<OpenV1Options> = async (app, { service, console: consoleFns }) => {
  const principals = new WeakMap<FastifyRequest, KeyPrincipal>();
  // Before validation, so a request without a valid key learns that first (the quota is counted before).
  app.addHook('preValidation', async (request) => {
    principals.set(request, await service.authenticate(request.headers.authorization, request.ip));
  });
  const principal = (request: FastifyRequest): KeyPrincipal => {
    const found = principals.get(request);
    if (!found) throw new Error('open API route without its key');
    return found;
  };
  /** The per-key quota through the product's rate limiter (IETF draft headers, 429 with code 429). */
  const rateLimit = {
    timeWindow: WINDOW_MS,
    keyGenerator: (request: FastifyRequest) => {
      const prefix = keyPrefixOf(request.headers.authorization);
      return prefix ? `open-key:${prefix}` : `open-ip:${request.ip}`;
    },
    max: async (request: FastifyRequest) => service.quotaOf(keyPrefixOf(request.headers.authorization)),
    allowList: () => false,
    labels: { rateLimit: 'ratelimit-limit', rateRemaining: 'ratelimit-remaining', rateReset: 'ratelimit-reset', retryAfter: 'retry-after' },
    addHeaders: { 'ratelimit-limit': true, 'ratelimit-remaining': true, 'ratelimit-reset': true, 'retry-after': true },
    addHeadersOnExceeding: { 'ratelimit-limit': true, 'ratelimit-remaining': true, 'ratelimit-reset': true },
  };
  const read = { access: 'public' as const, rateLimit };
  const write = {
    access: {
      kind: 'public-write' as const,
      reason: 'the operator API key in Authorization is the credential, checked before anything (open-api.service authenticate)',
    },
    rateLimit,
  };
  const PlantParams = IdParams;

  app.get(
    '/open/v1/plants',
    {
      config: read,
      schema: {
        tags: OPEN_TAGS,
        operationId: 'openListPlants',
        summary: 'The key’s plants (the console plant list’s rows)',
        description: KEY_DESCRIPTION,
        security: OPEN_SECURITY,
        'x-codes': KEY_CODES,
        response: { 200: envelopeSchema(z.array(PlantRowSchema)) },
      },
    },
    async (request) => ok(request, await service.plants(principal(request))),
  );

  app.get(
    '/open/v1/plants/:id',
    {
      config: read,
      schema: {
        tags: OPEN_TAGS,
        operationId: 'openGetPlant',
        summary: 'A plant’s details (700 outside the key’s plants)',
        description: KEY_DESCRIPTION,
        security: OPEN_SECURITY,
        'x-codes': PLANT_CODES,
        params: PlantParams,
        response: { 200: envelopeSchema(PlantDetailSchema) },
      },
    },
    async (request) => {
      const key = principal(request);
      return ok(request, await consoleFns.plantDetail(key.auth, await service.plant(key, request.params.id)));
    },
  );

  app.get(
    '/open/v1/plants/:id/realtime',
    {
      config: read,
      schema: {
        tags: OPEN_TAGS,
        operationId: 'openPlantRealtime',
        summary: 'Power now; energy today, this month, this year and in total (the plant overview’s figures)',
        description: KEY_DESCRIPTION,
        security: OPEN_SECURITY,
        'x-codes': PLANT_CODES,
        params: PlantParams,
        response: { 200: envelopeSchema(PlantRealtimeSchema) },
      },
    },
    async (request) => ok(request, await consoleFns.realtime(await service.plant(principal(request), request.params.id))),
  );

  app.get(
    '/open/v1/plants/:id/energy/day',
    {
      config: read,
      schema: {
        tags: OPEN_TAGS,
        operationId: 'openPlantEnergyDay',
        summary: 'A plant-local day: its energy and its power curve (5-minute points)',
        description: KEY_DESCRIPTION,
        security: OPEN_SECURITY,
        'x-codes': PLANT_CODES,
        params: PlantParams,
        querystring: DayQuerySchema,
        response: { 200: envelopeSchema(PowerDaySchema) },
      },
    },
    async (request) =>
      ok(request, await consoleFns.powerDay(await service.plant(principal(request), request.params.id), request.query.date)),
  );

  app.get(
    '/open/v1/plants/:id/energy/month',
    {
      config: read,
      schema: {
        tags: OPEN_TAGS,
        operationId: 'openPlantEnergyMonth',
        summary: 'Energy per day of a month (YYYY-MM, this month by default)',
        description: KEY_DESCRIPTION,
        security: OPEN_SECURITY,
        'x-codes': PLANT_CODES,
        params: PlantParams,
        querystring: MonthQuerySchema,
        response: { 200: envelopeSchema(EnergyBarsSchema) },
      },
    },
    async (request) =>
      ok(request, await consoleFns.powerMonth(await service.plant(principal(request), request.params.id), request.query.month)),
  );

  app.get(
    '/open/v1/plants/:id/energy/year',
    {
      config: read,
      schema: {
        tags: OPEN_TAGS,
        operationId: 'openPlantEnergyYear',
        summary: 'Energy per month of a year (this year by default)',
        description: KEY_DESCRIPTION,
        security: OPEN_SECURITY,
        'x-codes': PLANT_CODES,
        params: PlantParams,
        querystring: YearQuerySchema,
        response: { 200: envelopeSchema(EnergyBarsSchema) },
      },
    },
    async (request) =>
      ok(request, await consoleFns.powerYear(await service.plant(principal(request), request.params.id), request.query.year)),
  );

  app.get(
    '/open/v1/plants/:id/events',
    {
      config: read,
      schema: {
        tags: OPEN_TAGS,
        operationId: 'openPlantEvents',
        summary: 'A plant’s events, newest first, in the request’s language (lan or Accept-Language)',
        description: KEY_DESCRIPTION,
        security: OPEN_SECURITY,
        'x-codes': PLANT_CODES,
        params: PlantParams,
        querystring: EventsQuerySchema,
        response: { 200: envelopeSchema(PlantEventPageSchema) },
      },
    },
    async (request) => {
      const plantId = await service.plant(principal(request), request.params.id);
      return ok(request, await consoleFns.events(plantId, request.query.page, request.query.size, request.language));
    },
  );

  app.get(
    '/open/v1/plants/:id/devices',
    {
      config: read,
      schema: {
        tags: OPEN_TAGS,
        operationId: 'openPlantDevices',
        summary: 'A plant’s devices of every kind (the console device lists’ rows, up to 100 per kind)',
        description: KEY_DESCRIPTION,
        security: OPEN_SECURITY,
        'x-codes': PLANT_CODES,
        params: PlantParams,
        response: { 200: envelopeSchema(z.array(DeviceRowSchema)) },
      },
    },
    async (request) => ok(request, await service.plantDevices(principal(request), request.params.id)),
  );

  app.get(
    '/open/v1/devices/:sn',
    {
      config: read,
      schema: {
        tags: OPEN_TAGS,
        operationId: 'openGetDevice',
        summary: 'A device of the key’s plants (602 otherwise)',
        description: KEY_DESCRIPTION,
        security: OPEN_SECURITY,
        'x-codes': DEVICE_CODES,
        params: SnParams,
        response: { 200: envelopeSchema(DeviceRowSchema) },
      },
    },
    async (request) => {
      const key = principal(request);
      const device = await service.device(key, request.params.sn);
      return ok(request, await consoleFns.deviceRow(key.auth, device.kind, device.sn, request.language));
    },
  );

  app.get(
    '/open/v1/devices/:sn/realtime',
    {
      config: read,
      schema: {
        tags: OPEN_TAGS,
        operationId: 'openDeviceRealtime',
        summary: 'A device’s latest values by section, named and scaled by its register map',
        description: KEY_DESCRIPTION,
        security: OPEN_SECURITY,
        'x-codes': DEVICE_CODES,
        params: SnParams,
        response: { 200: envelopeSchema(DeviceRealtimeSchema) },
      },
    },
    async (request) => {
      const key = principal(request);
      const device = await service.device(key, request.params.sn);
      return ok(request, await consoleFns.deviceRealtime(key.auth, device.kind, device.sn, request.language));
    },
  );

  app.get(
    '/open/v1/devices/:sn/curves',
    {
      config: read,
      schema: {
        tags: OPEN_TAGS,
        operationId: 'openDeviceCurves',
        summary: 'A device’s curves over its local day(s): up to 6 points (its main ones by default)',
        description: KEY_DESCRIPTION,
        security: OPEN_SECURITY,
        'x-codes': DEVICE_CODES,
        params: SnParams,
        querystring: DeviceDayQuerySchema,
        response: { 200: envelopeSchema(DaySeriesSchema) },
      },
    },
    async (request) => {
      const key = principal(request);
      const device = await service.device(key, request.params.sn);
      return ok(request, await consoleFns.deviceDay(key.auth, device.kind, device.sn, request.language, request.query));
    },
  );

  const COMMAND_DESCRIPTION = `${KEY_DESCRIPTION} Operator keys only (2 for a read-only key or a creator without the permission); the console's checks apply: offline 603, upgrading 604, the company's cap 709; audited under the creator and the key.`;
  for (const op of ['boot', 'shutdown'] as const) {
    app.post(
      `/open/v1/devices/:sn/commands/${op}`,
      {
        config: write,
        schema: {
          tags: OPEN_TAGS,
          operationId: op === 'boot' ? 'openBootInverter' : 'openShutdownInverter',
          summary: op === 'boot' ? 'Switches an inverter on (its gateway confirms)' : 'Switches an inverter off (its gateway confirms)',
          description: COMMAND_DESCRIPTION,
          security: OPEN_SECURITY,
          'x-codes': COMMAND_CODES,
          params: SnParams,
          body: OpenCommandSchema,
          response: { 200: envelopeSchema(CommandResultSchema) },
        },
      },
      async (request) => {
        const key = principal(request);
        const run = op === 'boot' ? service.boot : service.shutdown;
        return ok(request, await run(key, request.language, request.params.sn, request.body));
      },
    );
  }

  app.post(
    '/open/v1/devices/:sn/commands/params',
    {
      config: write,
      schema: {
        tags: OPEN_TAGS,
        operationId: 'openWriteInverterParams',
        summary: 'Writes an inverter’s parameters (checked against its map’s ranges), then reads them back',
        description: COMMAND_DESCRIPTION,
        security: OPEN_SECURITY,
        'x-codes': COMMAND_CODES,
        params: SnParams,
        body: OpenParamsCommandSchema,
        response: { 200: envelopeSchema(CommandResultSchema) },
      },
    },
    async (request) => ok(request, await service.writeParams(principal(request), request.language, request.params.sn, request.body)),
  );
};
