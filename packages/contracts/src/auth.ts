import { z } from 'zod';
import { LIMITS } from './limits.js';

/** POST /oauth/token, password grant (OAuth 2.0 form fields; JSON is accepted too). */
export const PasswordGrantSchema = z.object({
  grant_type: z.literal('password'),
  username: z.string().trim().min(1).max(LIMITS.accountMaxLength),
  password: z.string().min(1).max(LIMITS.passwordMaxLength),
});

/** POST /oauth/token, refresh grant: rotates the pair; a retired token presented again revokes the session. */
export const RefreshGrantSchema = z.object({
  grant_type: z.literal('refresh_token'),
  refresh_token: z.string().min(16).max(200),
});

/**
 * POST /oauth/token, second step of a two-factor sign-in (issue 7): the challenge the password grant
 * answered with code 112, and a code from the authenticator app or a one-time recovery code.
 */
export const SecondFactorGrantSchema = z.object({
  grant_type: z.literal('second_factor'),
  challenge: z.string().min(16).max(200),
  code: z.string().trim().min(6).max(20),
});

export const TokenRequestSchema = z.discriminatedUnion('grant_type', [PasswordGrantSchema, RefreshGrantSchema, SecondFactorGrantSchema]);
export type TokenRequest = z.infer<typeof TokenRequestSchema>;

export const TokenResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int().positive(),
  token_type: z.literal('bearer'),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

export const CompanySummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  iconUrl: z.string().nullable(),
  themeColor: z.string(),
});

/** GET /api/v1/user: spec 01 §3 userInfo, with `userid` holding id, nickname, avatar and company. */
export const CurrentUserSchema = z.object({
  userid: z.object({
    id: z.number().int(),
    account: z.string(),
    nickname: z.string(),
    avatar: z.string().nullable(),
    role: z.string(),
    readOnly: z.boolean(),
    language: z.string(),
    company: CompanySummarySchema.nullable(),
    /** Issue 7: the user's company requires two-factor sign-in and the user has not enrolled yet. */
    twoFactorSetupRequired: z.boolean().optional(),
  }),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

export const UserQuerySchema = z.object({ lan: z.string().max(10).optional() });

/** GET /anonymous/about: what the footer and the update dialog need before and after sign-in. */
export const AboutSchema = z.object({ name: z.string(), version: z.string() });
export type About = z.infer<typeof AboutSchema>;
