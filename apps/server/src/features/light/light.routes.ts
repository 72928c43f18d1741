import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import {
  LightBindSchema,
  LightBridgeStatusSchema,
  LightOauthCallbackSchema,
  LightOauthStartSchema,
  LightSchema,
  LightSettingSchema,
} from '@sunward/contracts/smart-home';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { LightService } from './light.service.js';

const TAGS = ['Smart bulbs'];
const IdParams = z.object({ id: IdParamSchema });
const WRITE = { kind: 'manage', key: 'station.edit' } as const;
const BRIDGE_CODES = [Code.APP_NOT_ENABLED, Code.LIGHT_NOT_AUTHORISED, Code.LIGHT_TOKEN_REFUSED, Code.LIGHT_BRIDGE_UNREACHABLE];
const LIGHT_CODES = [...BRIDGE_CODES, Code.LIGHT_NOT_FOUND];
const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** Spec 01 §7 Lighting: light/oauth, callback, revoke, bridge/check, the bulb list, bind, unbind, setting; plant/{id}/light. */
export const lightRoutes: FastifyPluginAsyncZod<{ service: LightService }> = async (app, { service }) => {
  app.get(
    '/api/v1/light/oauth',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Starts connecting the company’s bulb bridge: the bridge’s authorisation address (OAuth 2.0 code flow with PKCE)',
        'x-codes': [Code.APP_NOT_ENABLED, Code.LIGHT_NOT_AUTHORISED],
        response: { 200: envelopeSchema(LightOauthStartSchema) },
      },
    },
    async (request) => ok(request, await service.oauthStart(request.requireAuth(), origin(request))),
  );

  app.post(
    '/api/v1/light/oauth/callback',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Finishes the connection with the code and state the bridge sent back; the tokens are stored sealed',
        'x-codes': [...BRIDGE_CODES, Code.LIGHT_OAUTH_STATE_INVALID],
        body: LightOauthCallbackSchema,
        response: { 200: envelopeSchema(LightBridgeStatusSchema) },
      },
    },
    async (request) => ok(request, await service.oauthCallback(request.requireAuth(), request.body, origin(request), request.language)),
  );

  app.post(
    '/api/v1/light/oauth/revoke',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Cancels the bridge authorisation (tokens revoked at the bridge and wiped); rules stop acting on bulbs',
        'x-codes': [Code.APP_NOT_ENABLED],
        response: { 200: envelopeSchema(LightBridgeStatusSchema) },
      },
    },
    async (request) => ok(request, await service.revoke(request.requireAuth(), request.language)),
  );

  app.get(
    '/api/v1/light/bridge/check',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'The bridge’s authorisation and whether it answers (its bulbs refreshed when it does)',
        'x-codes': [Code.APP_NOT_ENABLED],
        response: { 200: envelopeSchema(LightBridgeStatusSchema) },
      },
    },
    async (request) => ok(request, await service.check(request.requireAuth(), request.language)),
  );

  app.get(
    '/api/v1/light',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'The company’s bulbs with their plant and last known settings',
        'x-codes': [Code.APP_NOT_ENABLED],
        response: { 200: envelopeSchema(z.array(LightSchema)) },
      },
    },
    async (request) => ok(request, await service.list(request.requireAuth())),
  );

  app.get(
    '/api/v1/plant/:id/light',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'The bulbs bound to a plant',
        'x-codes': [Code.PLANT_NOT_FOUND],
        params: IdParams,
        response: { 200: envelopeSchema(z.array(LightSchema)) },
      },
    },
    async (request) => ok(request, await service.ofPlant(request.requireAuth(), request.params.id)),
  );

  app.post(
    '/api/v1/light/:id/bind',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Binds a bulb to a plant the caller operates',
        'x-codes': [Code.APP_NOT_ENABLED, Code.LIGHT_NOT_FOUND, Code.PLANT_NOT_FOUND],
        params: IdParams,
        body: LightBindSchema,
        response: { 200: envelopeSchema(LightSchema) },
      },
    },
    async (request) => ok(request, await service.bind(request.requireAuth(), request.params.id, request.body.plantId)),
  );

  app.post(
    '/api/v1/light/:id/unbind',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Unbinds a bulb from its plant',
        'x-codes': [Code.APP_NOT_ENABLED, Code.LIGHT_NOT_FOUND],
        params: IdParams,
        response: { 200: envelopeSchema(LightSchema) },
      },
    },
    async (request) => ok(request, await service.unbind(request.requireAuth(), request.params.id)),
  );

  app.post(
    '/api/v1/light/:id/setting',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Sets a bulb through the bridge: on/off, brightness 0–100 %, colour temperature 2000–6500 K',
        'x-codes': LIGHT_CODES,
        params: IdParams,
        body: LightSettingSchema,
        response: { 200: envelopeSchema(LightSchema) },
      },
    },
    async (request) => ok(request, await service.setting(request.requireAuth(), request.params.id, request.body)),
  );
};
