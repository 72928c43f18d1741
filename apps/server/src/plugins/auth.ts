import { Code } from '@sunward/contracts/codes';
import { isPermissionKey, type PermissionKey } from '@sunward/contracts/permissions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthRepository } from '../features/auth/auth.repository.js';
import { hashToken } from '../features/auth/tokens.js';
import type { PermissionsRepository } from '../features/permissions/permissions.repository.js';
import { ApiError } from '../lib/envelope.js';

/**
 * Who may call a route: anyone, any signed-in user, or a holder of one permission key.
 * Every route under /oauth, /anonymous and /api declares one; the server refuses to start otherwise.
 */
export type RouteAccess = 'public' | 'signed-in' | PermissionKey;

export interface AuthContext {
  userId: number;
  sessionId: string;
  account: string;
  roleId: number;
  roleKey: string;
  companyId: number | null;
  readOnly: boolean;
  permissions: ReadonlySet<PermissionKey>;
}

export interface RouteAccessEntry {
  method: string;
  url: string;
  access: RouteAccess | undefined;
  /** The route's request schemas, so the tenant-isolation test can build requests for every route. */
  schema?: { body?: unknown; querystring?: unknown; params?: unknown };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with its declared access, for the tests that prove each one is guarded. */
    routeAccessTable: RouteAccessEntry[];
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    /** The signed-in caller; only call it on routes whose access is not 'public'. */
    requireAuth(): AuthContext;
  }
}

const GUARDED_PREFIXES = ['/oauth', '/anonymous', '/api/'];

export function isGuardedPath(url: string): boolean {
  return GUARDED_PREFIXES.some((prefix) => url.startsWith(prefix));
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/** What a member who must still set up two-factor sign-in may call: their own account, the shell's basics. */
const ENROLMENT_PATHS = ['/api/v1/user', '/api/v1/permission', '/api/v1/message/count', '/api/v1/live', '/api/v1/files/avatars'];

export const authPlugin = fp<{ authRepository: AuthRepository; permissionsRepository: PermissionsRepository }>(
  async (app: FastifyInstance, { authRepository, permissionsRepository }) => {
    app.decorateRequest('auth', null);
    app.decorateRequest('requireAuth', function requireAuth(this: FastifyRequest): AuthContext {
      if (!this.auth) throw new ApiError(Code.TOKEN_INVALID);
      return this.auth;
    });

    const table: RouteAccessEntry[] = [];
    app.decorate('routeAccessTable', table);
    app.addHook('onRoute', (route) => {
      const access = route.config?.access;
      const schema = { body: route.schema?.body, querystring: route.schema?.querystring, params: route.schema?.params };
      for (const method of [route.method].flat()) table.push({ method, url: route.url, access, schema });
      if (isGuardedPath(route.url) && access === undefined) {
        throw new Error(`route ${route.method} ${route.url} declares no access (config.access)`);
      }
      if (access !== undefined && access !== 'public' && access !== 'signed-in' && !isPermissionKey(access)) {
        throw new Error(`route ${route.method} ${route.url} names an unknown permission ${String(access)}`);
      }
    });

    app.addHook('onRequest', async (request) => {
      const access = request.routeOptions.config.access;
      if (access === undefined || access === 'public') return;
      const token = bearerToken(request);
      if (!token) throw new ApiError(Code.TOKEN_INVALID);
      const row = await authRepository.findByAccessToken(hashToken(token), new Date());
      if (!row) throw new ApiError(Code.TOKEN_INVALID);
      // A member whose company requires two-factor sign-in reaches only what setting it up needs (the console
      // sends them to personal settings); everything else waits until it is set up (115).
      if (row.mustEnrolTwoFactor && !ENROLMENT_PATHS.some((prefix) => request.url.startsWith(prefix)))
        throw new ApiError(Code.TWO_FACTOR_SETUP_REQUIRED);
      const { mustEnrolTwoFactor: _, ...session } = row;
      const permissions = await permissionsRepository.keysOfRole(row.roleId);
      request.auth = { ...session, permissions };
      if (access !== 'signed-in' && !permissions.has(access)) throw new ApiError(Code.NO_PERMISSION);
    });
  },
);
