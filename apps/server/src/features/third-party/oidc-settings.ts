import { THIRD_PARTY_LIMITS } from '@sunward/contracts/third-party';
import { z } from 'zod';

/** Plain http only to a loopback issuer (tests, a provider on the same machine); anything else must be https. */
function isAcceptableIssuer(value: string): boolean {
  const url = new URL(value);
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

const ProviderSettingSchema = z.object({
  id: z.string().regex(THIRD_PARTY_LIMITS.providerIdPattern, 'id: lower-case letters, digits and hyphens, at most 32'),
  name: z.string().trim().min(1).max(64),
  issuer: z.string().url().refine(isAcceptableIssuer, 'issuer must be https (http only on loopback)'),
  clientId: z.string().min(1).max(512),
  clientSecret: z.string().min(1).max(1024),
  /** Scopes asked for besides openid; default: email and profile, shown so users recognise what they bind. */
  scopes: z
    .array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/))
    .max(20)
    .default(['email', 'profile']),
});
export type OidcProviderSettings = z.infer<typeof ProviderSettingSchema>;

/**
 * OIDC_PROVIDERS: a JSON array of providers (README "Settings"). Empty or unset: third-party sign-in is
 * off and the sign-in page shows no provider buttons.
 */
export const OidcProvidersSettingSchema = z
  .string()
  .optional()
  .transform((text, ctx): unknown => {
    if (!text || text.trim() === '') return [];
    try {
      return JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of providers' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(ProviderSettingSchema)
      .max(20)
      .refine((list) => new Set(list.map((p) => p.id)).size === list.length, 'provider ids must be unique'),
  );
