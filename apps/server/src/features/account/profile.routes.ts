import { readFile } from 'node:fs/promises';
import {
  AccountInfoSchema,
  AvatarUploadedSchema,
  PasswordChangedSchema,
  PasswordChangeSchema,
  PersonalizedSchema,
  PersonalizedUpdateSchema,
  ProfileUpdateSchema,
  RecoveryCodesSchema,
  TwoFactorEnableSchema,
  TwoFactorPasswordSchema,
  TwoFactorSetupSchema,
} from '@sunward/contracts/account';
import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, ok } from '../../lib/envelope.js';
import type { ProfileService } from './profile.service.js';
import type { TwoFactorService } from './two-factor.service.js';

const TAGS = ['Authentication and account'];
const UserParams = z.object({ userId: IdParamSchema });
const AVATAR_NAME = /^[a-f0-9]{32}\.(jpg|png)$/;

/** Multipart bodies arrive as key → value (fields) or Buffer (files): see plugins/body-parsers.ts. */
function fileOf(body: unknown): Buffer {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>).file : undefined;
  if (!Buffer.isBuffer(value)) throw new ApiError(Code.VALIDATION, {}, { errors: [{ field: 'file', message: 'required' }] });
  return value;
}

/** Personal settings (/edit): the signed-in user's own account, and two-factor sign-in. */
export const profileRoutes: FastifyPluginAsyncZod<{ profile: ProfileService; twoFactor: TwoFactorService }> = async (
  app,
  { profile, twoFactor },
) => {
  app.get(
    '/api/v1/user/accountInfo',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary: 'The account as personal settings shows it: profile, company, last sign-in, sessions, two-factor state',
        response: { 200: envelopeSchema(AccountInfoSchema) },
      },
    },
    async (request) => ok(request, await profile.accountInfo(request.requireAuth())),
  );

  app.get(
    '/api/v1/user/personalized',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary: 'Personalized settings: language, look (styleType), home page, rows per page',
        response: { 200: envelopeSchema(PersonalizedSchema) },
      },
    },
    async (request) => ok(request, await profile.personalized(request.requireAuth().userId)),
  );

  app.post(
    '/api/v1/user/personalized',
    {
      config: { access: { kind: 'own-account', reason: 'the caller’s own display preferences', readOnlyAccounts: 'allowed' } },
      schema: {
        tags: TAGS,
        summary: 'Changes personalized settings (any subset); answers all of them',
        body: PersonalizedUpdateSchema,
        response: { 200: envelopeSchema(PersonalizedSchema) },
      },
    },
    async (request) => ok(request, await profile.updatePersonalized(request.requireAuth().userId, request.body)),
  );

  app.post(
    '/api/v1/user/avatar',
    {
      config: { access: { kind: 'own-account', reason: 'the caller’s own avatar picture' } },
      schema: {
        tags: TAGS,
        summary: 'Uploads the avatar (multipart field "file": JPG or PNG by content, at most 6 MB); it applies at once',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(AvatarUploadedSchema) },
      },
    },
    async (request) => ok(request, await profile.uploadAvatar(request.requireAuth(), fileOf(request.body), request.language)),
  );

  app.get(
    '/api/v1/files/avatars/:name',
    {
      config: { access: 'public' },
      schema: { tags: TAGS, summary: 'An avatar by its unguessable name', params: z.object({ name: z.string().regex(AVATAR_NAME) }) },
    },
    async (request, reply) => {
      const { name } = request.params;
      const bytes = await readFile(profile.avatarPath(name)).catch(() => undefined);
      if (!bytes) throw new ApiError(Code.NOT_FOUND);
      return reply
        .type(name.endsWith('.png') ? 'image/png' : 'image/jpeg')
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(bytes);
    },
  );

  app.post(
    '/api/v1/user/twoFactor/setup',
    {
      config: { access: { kind: 'own-account', reason: 'starts two-factor sign-in for the caller’s own account' } },
      schema: {
        tags: TAGS,
        summary: 'Starts two-factor enrolment: a new TOTP secret and its otpauth:// URI for the QR code (207 when already on)',
        response: { 200: envelopeSchema(TwoFactorSetupSchema) },
      },
    },
    async (request) => ok(request, await twoFactor.setup(request.requireAuth().userId)),
  );

  app.post(
    '/api/v1/user/twoFactor/enable',
    {
      config: { access: { kind: 'own-account', reason: 'turns on two-factor sign-in for the caller’s own account' } },
      schema: {
        tags: TAGS,
        summary: 'Confirms enrolment with a first code from the app; answers the one-time recovery codes, shown once',
        description: 'Codes: 5 wrong code, 6 no set-up started, 207 already on.',
        body: TwoFactorEnableSchema,
        response: { 200: envelopeSchema(RecoveryCodesSchema) },
      },
    },
    async (request) => ok(request, await twoFactor.enable(request.requireAuth().userId, request.body.code)),
  );

  app.post(
    '/api/v1/user/twoFactor/disable',
    {
      config: { access: { kind: 'own-account', reason: 'turns off two-factor sign-in for the caller’s own account (password again)' } },
      schema: {
        tags: TAGS,
        summary: 'Turns two-factor sign-in off with the password',
        description: 'Codes: 708 wrong password, 135 too many wrong passwords, 114 the company requires it.',
        body: TwoFactorPasswordSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await twoFactor.disable(request.requireAuth().userId, request.body.password, request.ip);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/user/twoFactor/recoveryCodes',
    {
      config: { access: { kind: 'own-account', reason: 'new recovery codes for the caller’s own account (password again)' } },
      schema: {
        tags: TAGS,
        summary: 'New recovery codes with the password; the previous ones stop working',
        description: 'Codes: 708 wrong password, 135 too many wrong passwords, 4 two-factor sign-in is off.',
        body: TwoFactorPasswordSchema,
        response: { 200: envelopeSchema(RecoveryCodesSchema) },
      },
    },
    async (request) =>
      ok(request, await twoFactor.regenerateRecoveryCodes(request.requireAuth().userId, request.body.password, request.ip)),
  );

  app.post(
    '/api/v1/user/:userId',
    {
      config: { access: { kind: 'own-account', reason: 'the caller’s own profile; another user id answers 2 (profile.service)' } },
      schema: {
        tags: TAGS,
        summary: 'Updates one’s own profile: nickname, avatar, e-mail and phone (a new one with the code sendBindCode sent)',
        description: 'Codes: 2 another user, 4 invalid or taken address or missing code, 5 wrong code, 6 expired code.',
        params: UserParams,
        body: ProfileUpdateSchema,
        response: { 200: envelopeSchema(AccountInfoSchema) },
      },
    },
    async (request) =>
      ok(request, await profile.updateProfile(request.requireAuth(), request.params.userId, request.body, request.language)),
  );

  app.post(
    '/api/v1/user/:userId/pwd',
    {
      config: { access: { kind: 'own-account', reason: 'the caller’s own password; another user id answers 2 (profile.service)' } },
      schema: {
        tags: TAGS,
        summary: 'Changes one’s own password; every other session of the account is signed out',
        description: 'Codes: 108 old password wrong, 4 new password breaks the rules or is common, 2 another user.',
        params: UserParams,
        body: PasswordChangeSchema,
        response: { 200: envelopeSchema(PasswordChangedSchema) },
      },
    },
    async (request) =>
      ok(request, await profile.changePassword(request.requireAuth(), request.params.userId, request.body, request.language)),
  );
};
