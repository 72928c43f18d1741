import type { SmartApp } from '@sunward/contracts/smart-home';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../../plugins/auth.js';

/**
 * The platform administrator is in no company, so has no apps: the AC switch gate lets them through, since they
 * keep the platform's switch stock (importOneBySys, importBatchBySys, the sys pages) and support every company.
 */
export const PLATFORM_PASSES_SWITCH_GATE = (auth: AuthContext) => auth.roleKey === 'platform_admin';

/**
 * A route family's gate on its app (application centre, issue 22): an `onRequest` hook, added inside the family's
 * plugin after the auth plugin has put the caller on the request, that refuses 4400 unless the caller's company
 * enabled the app. `passes` lets a caller outside any company through (the platform administrator for switches).
 */
export function appGate(
  apps: { require(auth: AuthContext, app: SmartApp): Promise<unknown> },
  app: SmartApp,
  passes: (auth: AuthContext) => boolean = () => false,
) {
  return async (request: FastifyRequest): Promise<void> => {
    const auth = request.requireAuth();
    if (passes(auth)) return;
    await apps.require(auth, app);
  };
}
