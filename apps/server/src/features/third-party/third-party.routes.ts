import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import {
  BoundIdentityListSchema,
  ThirdPartyAuthorizeRequestSchema,
  ThirdPartyAuthorizeResponseSchema,
  ThirdPartyBindRequestSchema,
  ThirdPartyConfigSchema,
  ThirdPartyTokenRequestSchema,
  ThirdPartyTokenResponseSchema,
  ThirdPartyUnbindRequestSchema,
} from '@sunward/contracts/third-party';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError, ok } from '../../lib/envelope.js';
import type { ThirdPartyService } from './third-party.service.js';

const TAGS = ['Authentication and account'];

/** Third-party sign-in with OpenID Connect (spec 01 §7; docs/decisions.md "Third-party sign-in"). */
export const thirdPartyRoutes: FastifyPluginAsyncZod<{ service: ThirdPartyService }> = async (app, { service }) => {
  app.post(
    '/oauth/third/config',
    {
      config: {
        access: {
          kind: 'view',
          key: 'public',
          readsOnly: 'the configured providers, names only; the console asks with a POST (spec 01 §7)',
        },
      },
      schema: {
        tags: TAGS,
        summary: 'The configured sign-in providers (id and name; never their secrets)',
        response: { 200: envelopeSchema(ThirdPartyConfigSchema) },
      },
    },
    async (request) => ok(request, service.config()),
  );

  app.post(
    '/oauth/third/authorize',
    {
      config: {
        access: { kind: 'public-write', reason: 'starts a provider sign-in: a short-lived state bound to this browser, nothing else' },
      },
      schema: {
        tags: TAGS,
        summary: "Starts a sign-in (or bind) with a provider: answers the provider's authorization URL and this browser's key",
        description:
          'Authorization-code flow with PKCE (S256), state and nonce; the verifier and nonce stay on the server. The page keeps `browserKey` in sessionStorage and sends it to /oauth/third/token. Codes: 120 unknown provider, 122 provider unreachable, 429 too many open flows from this address.',
        body: ThirdPartyAuthorizeRequestSchema,
        response: { 200: envelopeSchema(ThirdPartyAuthorizeResponseSchema) },
      },
    },
    async (request) =>
      ok(
        request,
        await service.authorize({
          provider: request.body.provider,
          purpose: request.body.purpose,
          ip: request.ip,
          origin: `${request.protocol}://${request.host}`,
        }),
      ),
  );

  app.post(
    '/oauth/third/token',
    {
      config: {
        access: { kind: 'public-write', reason: 'completes a provider sign-in; the provider’s code and the state prove the caller' },
      },
      schema: {
        tags: TAGS,
        summary: 'Completes the flow with the code and state /loginThird received: signs in, or answers a binding ticket',
        description:
          'outcome signedIn: the same tokens as /oauth/token. outcome bindingRequired: the identity is not bound (or the flow was started to bind); send the ticket to /api/v1/user/third/bind once signed in. Codes: 121 state unknown, used, expired or from another browser; 122 provider refused the code; 123 ID token invalid (signature, issuer, audience, expiry, nonce); 101 account disabled.',
        body: ThirdPartyTokenRequestSchema,
        response: { 200: envelopeSchema(ThirdPartyTokenResponseSchema) },
      },
    },
    async (request) => ok(request, await service.complete({ ...request.body, ip: request.ip, userAgent: request.headers['user-agent'] })),
  );

  app.get(
    '/api/v1/user/third',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary: "The caller's bound third-party accounts",
        response: { 200: envelopeSchema(BoundIdentityListSchema) },
      },
    },
    async (request) => ok(request, await service.list(request.requireAuth().userId)),
  );

  app.post(
    '/api/v1/user/third/bind',
    {
      config: { access: { kind: 'own-account', reason: 'binds a third-party identity to the caller’s own account' } },
      schema: {
        tags: TAGS,
        summary: "Binds the ticket's third-party identity to the caller; answers the caller's bound accounts",
        description:
          'Codes: 124 ticket unknown, used or expired; 125 identity bound to another account; 126 the caller already has an identity of this provider; 2 read-only account.',
        body: ThirdPartyBindRequestSchema,
        response: { 200: envelopeSchema(BoundIdentityListSchema) },
      },
    },
    async (request) => {
      const auth = request.requireAuth();
      if (auth.readOnly) throw new ApiError(Code.NO_PERMISSION);
      return ok(request, await service.bind(auth.userId, request.body.ticket));
    },
  );

  app.post(
    '/api/v1/user/third/unbind',
    {
      config: { access: { kind: 'own-account', reason: 'unbinds a third-party identity from the caller’s own account' } },
      schema: {
        tags: TAGS,
        summary: "Unbinds the caller's identity of a provider; answers the caller's bound accounts",
        description: 'Codes: 127 no identity of this provider is bound; 2 read-only account.',
        body: ThirdPartyUnbindRequestSchema,
        response: { 200: envelopeSchema(BoundIdentityListSchema) },
      },
    },
    async (request) => {
      const auth = request.requireAuth();
      if (auth.readOnly) throw new ApiError(Code.NO_PERMISSION);
      return ok(request, await service.unbind(auth.userId, request.body.provider));
    },
  );
};
