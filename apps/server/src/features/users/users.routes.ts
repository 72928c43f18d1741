import { CurrentUserSchema, UserQuerySchema } from '@sunward/contracts/auth';
import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError, ok } from '../../lib/envelope.js';
import type { UsersRepository } from './users.repository.js';
import { presentCurrentUser } from './users.service.js';

export const usersRoutes: FastifyPluginAsyncZod<{ repository: UsersRepository }> = async (app, { repository }) => {
  app.get(
    '/api/v1/user',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['Authentication and account'],
        summary: 'The signed-in user (spec userInfo)',
        querystring: UserQuerySchema,
        response: { 200: envelopeSchema(CurrentUserSchema) },
      },
    },
    async (request) => {
      const auth = request.requireAuth();
      const row = await repository.findProfile(auth.userId);
      if (!row) throw new ApiError(Code.TOKEN_INVALID);
      return ok(request, presentCurrentUser(row));
    },
  );
};
