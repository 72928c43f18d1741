import { ThirdPartyConfigSchema } from '@sunward/contracts/third-party-providers';
import { apiRequest } from '../../../lib/api-client';

export const thirdPartyKeys = {
  providers: ['third-party', 'providers'] as const,
  bound: ['third-party', 'bound'] as const,
};

/** The configured providers (the sign-in page asks before it loads any of the flow's code). */
export function fetchThirdPartyProviders() {
  return apiRequest('/oauth/third/config', { method: 'POST', anonymous: true, schema: ThirdPartyConfigSchema });
}
