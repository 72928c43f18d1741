import { TokenRequestSchema, TokenResponseSchema } from '@sunward/contracts/auth';
import { Code } from '@sunward/contracts/codes';
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
      config: {
        access: { kind: 'public-write', reason: 'sign-in: the password or refresh token is the proof; throttled per account and address' },
      },
      schema: {
        'x-codes': [
          Code.WRONG_CREDENTIALS,
          Code.ACCOUNT_DISABLED,
          Code.SIGN_IN_LOCKED,
          Code.REFRESH_INVALID,
          Code.SECOND_FACTOR_REQUIRED,
          Code.SECOND_FACTOR_EXPIRED,
          Code.VERIFICATION_CODE_WRONG,
        ],
        tags: ['Authentication and account'],
        summary: 'Sign in (grant_type=password) or exchange a refresh token (grant_type=refresh_token)',
        description:
          'Form fields as OAuth 2.0 has them (JSON accepted). Codes: 102 wrong account or password, 101 disabled, 110 locked after repeated failures, 111 refresh token invalid or reused. Two-factor sign-in: the password grant answers 112 with data {challenge, expiresIn}; then grant_type=second_factor with challenge and code (authenticator or recovery code) answers the tokens, 5 for a wrong code (counted towards the lock), 113 for an expired or used challenge.',
        body: TokenRequestSchema,
        response: { 200: envelopeSchema(TokenResponseSchema) },
      },
    },
    async (request) => {
      const body = request.body;
      const userAgent = request.headers['user-agent'];
      if (body.grant_type === 'password')
        return ok(
          request,
          await service.signIn({ account: body.username, password: body.password, ip: request.ip, userAgent, host: request.headers.host }),
        );
      if (body.grant_type === 'second_factor')
        return ok(request, await service.completeSecondFactor({ challenge: body.challenge, code: body.code, ip: request.ip, userAgent }));
      return ok(request, await service.refresh(body.refresh_token));
    },
  );

  app.post(
    '/oauth/revoke',
    {
      config: { access: { kind: 'public-write', reason: 'sign-out: revokes only the session whose token is presented' } },
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
