import { PermissionEntrySchema } from '@sunward/contracts/permissions';
import { z } from 'zod';

export { AboutSchema, CurrentUserSchema, TokenResponseSchema } from '@sunward/contracts/auth';

/**
 * The session calls' answers, loaded on first use by api.ts (lazySchema) so the sign-in page carries no zod.
 * A module of its own: zod imported statically here is tree-shaken, `import('zod')` would bring all of it.
 */
export const NoDataSchema = z.null();
export const PermissionListSchema = z.array(PermissionEntrySchema);
export const UnreadCountSchema = z.number().int();
