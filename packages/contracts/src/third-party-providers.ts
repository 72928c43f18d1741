import { z } from 'zod';

/** A configured OpenID Connect provider as the console shows it: never its secrets. */
export const ThirdPartyProviderSchema = z.object({ id: z.string(), name: z.string() });
export type ThirdPartyProvider = z.infer<typeof ThirdPartyProviderSchema>;

/** POST /oauth/third/config */
export const ThirdPartyConfigSchema = z.array(ThirdPartyProviderSchema);
