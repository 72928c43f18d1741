import {
  CheckAccountQuerySchema,
  CheckCodeQuerySchema,
  CodeSentSchema,
  GetCodeQuerySchema,
  PasswordPolicySchema,
  ResetPasswordBodySchema,
  SendBindCodeQuerySchema,
  SignupBodySchema,
  SignupResultSchema,
} from '@sunward/contracts/account';
import { envelopeSchema } from '@sunward/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { AccountService } from './account.service.js';

const TAGS = ['Authentication and account'];
const Done = envelopeSchema(z.null());

/** The anonymous account calls of spec 01 §7: codes, account check, registration, password reset. */
export const accountRoutes: FastifyPluginAsyncZod<{ service: AccountService }> = async (app, { service }) => {
  app.get(
    '/anonymous/getCode',
    {
      config: { access: { kind: 'public-write', reason: 'sends a verification code to the given address; one a minute per address' } },
      schema: {
        tags: TAGS,
        summary: 'Sends a verification code: type register or reset; e-mail, or SMS for a mainland mobile number',
        description:
          'Codes: 400 not an e-mail or mobile number, 429 asked too often (once a minute and 5 an hour per address, 20 an hour per client). The answer is the same whether or not the account exists.',
        querystring: GetCodeQuerySchema,
        response: { 200: envelopeSchema(CodeSentSchema) },
      },
    },
    async (request) => {
      const { account, type } = request.query;
      return ok(request, await service.getCode({ account, type, ip: request.ip, language: request.language }));
    },
  );

  app.get(
    '/anonymous/checkCode',
    {
      config: { access: 'public' },
      schema: {
        tags: TAGS,
        summary: 'Checks a verification code without using it up',
        description: 'Codes: 5 wrong (five wrong entries void the code), 6 expired, used or never sent, 135 too many wrong codes.',
        querystring: CheckCodeQuerySchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.checkCode({ ...request.query, ip: request.ip });
      return ok(request, null);
    },
  );

  app.get(
    '/anonymous/checkAccount',
    {
      config: { access: 'public' },
      schema: {
        tags: TAGS,
        summary: 'Whether an account can register (type register) or reset its password (type reset)',
        description: 'Codes: 400 not an e-mail or mobile number, 103 already registered, 105 not registered, 429 asked too often.',
        querystring: CheckAccountQuerySchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.checkAccount({ ...request.query, ip: request.ip });
      return ok(request, null);
    },
  );

  app.post(
    '/anonymous/signup',
    {
      config: { access: { kind: 'public-write', reason: 'registers a plant owner; the code sent to the account proves it' } },
      schema: {
        tags: TAGS,
        summary: 'Registers a plant owner with the code sent to the account; the agreement must be accepted',
        description:
          'Codes: 4 (agreement, account format, password rules or common password), 103 registered, 5 wrong code, 6 expired code, 135 too many wrong codes.',
        body: SignupBodySchema,
        response: { 200: envelopeSchema(SignupResultSchema) },
      },
    },
    async (request) => {
      const { account, code, password, nickname, agree } = request.body;
      return ok(request, await service.signup({ account, code, password, nickname, agree, language: request.language, ip: request.ip }));
    },
  );

  app.post(
    '/anonymous/resetPwd',
    {
      config: { access: { kind: 'public-write', reason: 'sets a new password; the code sent to the account proves it' } },
      schema: {
        tags: TAGS,
        summary: 'Sets a new password with the code sent to the account; every session of the account is signed out',
        description: 'Codes: 4 (password rules or common password), 5 wrong code, 6 expired code, 135 too many wrong codes.',
        body: ResetPasswordBodySchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.resetPassword({ ...request.body, language: request.language, ip: request.ip });
      return ok(request, null);
    },
  );

  app.get(
    '/anonymous/sendBindCode',
    {
      config: { access: { kind: 'public-write', reason: 'sends a code to an address so its owner can bind it; one a minute per address' } },
      schema: {
        tags: TAGS,
        summary: 'Sends a code to an e-mail or phone number to bind it to a profile (POST /api/v1/user/{userId} checks it)',
        description: 'Codes: 400 not an e-mail or phone number, 429 asked too often.',
        querystring: SendBindCodeQuerySchema,
        response: { 200: envelopeSchema(CodeSentSchema) },
      },
    },
    async (request) => {
      return ok(request, await service.sendBindCode({ account: request.query.account, ip: request.ip, language: request.language }));
    },
  );

  app.get(
    '/anonymous/passwordPolicy',
    {
      config: { access: 'public' },
      schema: {
        tags: TAGS,
        summary: 'The password rule the server applies (PASSWORD_POLICY), so forms check the same before sending',
        response: { 200: envelopeSchema(PasswordPolicySchema) },
      },
    },
    async (request) => ok(request, { rule: service.passwordRule }),
  );
};
