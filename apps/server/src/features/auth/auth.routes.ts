import { TokenRequestSchema, TokenResponseSchema } from '@sunward/contracts/auth';
import { envelopeSchema } from '@sunward/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { AuthService } from './auth.service.js';

const RevokeBodySchema = z.object({ token: z.string().min(16).max(200).optional() }).optional();

export const authRoutes: FastifyPluginAsyncZod<{ service: AuthService }> = async (app, { service }) => {
  app.post(
    '/oauth/token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Authentication and account'],
        summary: 'Sign in (grant_type=password) or exchange a refresh token (grant_type=refresh_token)',
        description:
          'Form fields as OAuth 2.0 has them (JSON accepted). Codes: 102 wrong account or password, 101 disabled, 110 locked after repeated failures, 111 refresh token invalid or reused.',
        body: TokenRequestSchema,
        response: { 200: envelopeSchema(TokenResponseSchema) },
      },
    },
    async (request) => {
      const body = request.body;
      const tokens =
        body.grant_type === 'password'
          ? await service.signIn({
              account: body.username,
              password: body.password,
              ip: request.ip,
              userAgent: request.headers['user-agent'],
            })
          : await service.refresh(body.refresh_token);
      return ok(request, tokens);
    },
  );

  app.post(
    '/oauth/revoke',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Authentication and account'],
        summary: 'Sign out: revokes the session of the bearer token and/or of the refresh token given as `token`',
        body: RevokeBodySchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      // Public on purpose: a client whose access token expired can still end its session with the refresh token.
      const bearer = request.headers.authorization?.replace(/^bearer\s+/i, '');
      await service.signOut([bearer, request.body?.token].filter((t): t is string => !!t));
      return ok(request, null);
    },
  );
};
