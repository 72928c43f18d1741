import type { ThirdPartyProvider } from '@sunward/contracts/third-party-providers';
import { apiRequest, lazySchema } from '../../../lib/api-client';

// The sign-in page asks on every load: with no provider configured (the default) the answer is an empty list and
// needs no schema; a list of providers is checked with the contract's schema, loaded then with the buttons (issue 18).
const configSchema = lazySchema(async () => (await import('@sunward/contracts/third-party-providers')).ThirdPartyConfigSchema);
const ProvidersSchema = {
  parse: (data: unknown): ThirdPartyProvider[] | Promise<ThirdPartyProvider[]> =>
    Array.isArray(data) && data.length === 0 ? [] : configSchema.parse(data),
};

export const thirdPartyKeys = {
  providers: ['third-party', 'providers'] as const,
  bound: ['third-party', 'bound'] as const,
};

/** The configured providers (the sign-in page asks before it loads any of the flow's code). */
export function fetchThirdPartyProviders() {
  return apiRequest('/oauth/third/config', { method: 'POST', anonymous: true, schema: ProvidersSchema });
}
