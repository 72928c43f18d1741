import { z } from 'zod';
import { TokenResponseSchema } from './auth.js';

/**
 * Third-party sign-in with OpenID Connect (spec 01 §7 /oauth/third/*, /api/v1/user/third/*).
 * The flow: config lists the providers; authorize starts an authorization-code flow (PKCE S256,
 * state, nonce) and answers the provider's URL; the provider sends the browser back to /loginThird
 * with code and state; token completes the flow and signs in, or hands out a binding ticket.
 */

export const THIRD_PARTY_LIMITS = {
  providerIdPattern: /^[a-z0-9][a-z0-9-]{0,31}$/,
  /** How long a started flow may take at the provider before its state expires. */
  flowTtlSeconds: 600,
  /** How long an unbound identity may wait for its owner to sign in and bind it. */
  ticketTtlSeconds: 900,
  /** Random secrets (state, browser key, ticket) are 32 bytes in base64url: 43 characters. */
  secretLength: 43,
} as const;

const ProviderIdSchema = z.string().regex(THIRD_PARTY_LIMITS.providerIdPattern);
const SecretSchema = z.string().min(THIRD_PARTY_LIMITS.secretLength).max(128);

/** A configured provider as the console may see it: never its client secret. */
// The providers list lives in its own module: the sign-in page loads it without the flow's other schemas.
import { ThirdPartyConfigSchema, type ThirdPartyProvider, ThirdPartyProviderSchema } from './third-party-providers.js';

export { ThirdPartyConfigSchema, type ThirdPartyProvider, ThirdPartyProviderSchema };

/** signIn: the flow ends signed in (or asks to bind); bind: a signed-in user adds an identity from personal settings. */
export const ThirdPartyPurposeSchema = z.enum(['signIn', 'bind']);
export type ThirdPartyPurpose = z.infer<typeof ThirdPartyPurposeSchema>;

/** POST /oauth/third/authorize: starts a flow. */
export const ThirdPartyAuthorizeRequestSchema = z.object({
  provider: ProviderIdSchema,
  purpose: ThirdPartyPurposeSchema.default('signIn'),
});
export type ThirdPartyAuthorizeRequest = z.input<typeof ThirdPartyAuthorizeRequestSchema>;

/**
 * browserKey ties the flow to the browser that started it: the page keeps it in sessionStorage and
 * sends it back with the code, so a callback link planted by someone else cannot complete the flow.
 */
export const ThirdPartyAuthorizeResponseSchema = z.object({
  authorizationUrl: z.string().url(),
  state: z.string(),
  browserKey: z.string(),
  expiresIn: z.number().int().positive(),
});
export type ThirdPartyAuthorizeResponse = z.infer<typeof ThirdPartyAuthorizeResponseSchema>;

/** POST /oauth/third/token: what /loginThird received from the provider plus the browser key. */
export const ThirdPartyTokenRequestSchema = z.object({
  code: z.string().min(1).max(2048),
  state: SecretSchema,
  browserKey: SecretSchema,
  /** RFC 9207: the issuer the provider names in its answer; checked when present (mix-up defence). */
  iss: z.string().max(2048).optional(),
});
export type ThirdPartyTokenRequest = z.infer<typeof ThirdPartyTokenRequestSchema>;

/** What the provider told us about the person, shown so they recognise the identity they bind. */
export const ThirdPartyIdentitySummarySchema = z.object({
  provider: ThirdPartyProviderSchema,
  email: z.string().nullable(),
  name: z.string().nullable(),
});
export type ThirdPartyIdentitySummary = z.infer<typeof ThirdPartyIdentitySummarySchema>;

/** A bound identity: the same answer as /oauth/token, marked. */
export const ThirdPartySignedInSchema = TokenResponseSchema.extend({ outcome: z.literal('signedIn') });

/** No account is bound to the identity yet (or the flow was started to bind): a short-lived ticket for user/third/bind. */
export const ThirdPartyBindingRequiredSchema = z.object({
  outcome: z.literal('bindingRequired'),
  purpose: ThirdPartyPurposeSchema,
  ticket: z.string(),
  expiresIn: z.number().int().positive(),
  identity: ThirdPartyIdentitySummarySchema,
});

export const ThirdPartyTokenResponseSchema = z.discriminatedUnion('outcome', [ThirdPartySignedInSchema, ThirdPartyBindingRequiredSchema]);
export type ThirdPartyTokenResponse = z.infer<typeof ThirdPartyTokenResponseSchema>;

/** POST /api/v1/user/third/bind */
export const ThirdPartyBindRequestSchema = z.object({ ticket: SecretSchema });
export type ThirdPartyBindRequest = z.infer<typeof ThirdPartyBindRequestSchema>;

/** POST /api/v1/user/third/unbind */
export const ThirdPartyUnbindRequestSchema = z.object({ provider: ProviderIdSchema });
export type ThirdPartyUnbindRequest = z.infer<typeof ThirdPartyUnbindRequestSchema>;

/** GET /api/v1/user/third: the caller's bound identities. */
export const BoundIdentitySchema = z.object({
  provider: ThirdPartyProviderSchema,
  email: z.string().nullable(),
  name: z.string().nullable(),
  boundAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type BoundIdentity = z.infer<typeof BoundIdentitySchema>;
export const BoundIdentityListSchema = z.array(BoundIdentitySchema);
