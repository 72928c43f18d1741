import { Code } from '@sunward/contracts/codes';
import { effectivePermissions, type PermissionKey } from '@sunward/contracts/permissions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthRepository } from '../features/auth/auth.repository.js';
import { hashToken } from '../features/auth/tokens.js';
import type { PermissionsRepository } from '../features/permissions/permissions.repository.js';
import { ApiError } from '../lib/envelope.js';
import { accessProblem, changesState, type RequiredAccess, type RouteAccess, requiredAccess } from './route-access.js';

/**
 * Who may call a route and what it does (route-access.ts): anyone, any signed-in user, or a holder of one
 * permission key of the kind the route needs. Every route under /oauth, /anonymous and /api declares one, and
 * a route that changes state is never guarded by a read; the server refuses to start otherwise.
 */
export type { RouteAccess } from './route-access.js';

export interface AuthContext {
  userId: number;
  sessionId: string;
  account: string;
  roleId: number;
  roleKey: string;
  companyId: number | null;
  readOnly: boolean;
  permissions: ReadonlySet<PermissionKey>;
  /** The request's network address: a password asked again counts against it (secret-throttle.ts). */
  ip: string;
}

export interface RouteAccessEntry {
  method: string;
  url: string;
  access: RouteAccess | undefined;
  /** What the caller must hold (the key, 'signed-in' or 'public'). */
  requires: RequiredAccess | undefined;
  /** Whether the call changes state (its method, or its name for a GET). */
  changesState: boolean;
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

/**
 * What a member who must still set up two-factor sign-in may call, by method and route: their own account
 * and the shell's basics, so the console's personal settings can enrol them. Every other signed-in route
 * (the live stream of plant events included, and any route added later) answers 115 until it is set up.
 */
export const ENROLMENT_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/v1/user',
  'GET /api/v1/permission',
  'GET /api/v1/message/count',
  'GET /api/v1/user/accountInfo',
  'GET /api/v1/user/personalized',
  'POST /api/v1/user/personalized',
  'POST /api/v1/user/avatar',
  'POST /api/v1/user/:userId',
  'POST /api/v1/user/:userId/pwd',
  'POST /api/v1/user/twoFactor/setup',
  'POST /api/v1/user/twoFactor/enable',
]);

function isEnrolmentRoute(request: FastifyRequest): boolean {
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return ENROLMENT_ROUTES.has(`${method} ${request.routeOptions.url}`);
}

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
      for (const method of [route.method].flat()) {
        const problem = accessProblem(method, route.url, access, isGuardedPath(route.url));
        if (problem) throw new Error(problem);
        const requires = access === undefined ? undefined : requiredAccess(access);
        table.push({ method, url: route.url, access, requires, changesState: changesState(method, route.url), schema });
      }
    });

    app.addHook('onRequest', async (request) => {
      const declared = request.routeOptions.config.access;
      const access = declared === undefined ? undefined : requiredAccess(declared);
      if (access === undefined || access === 'public') return;
      const token = bearerToken(request);
      if (!token) throw new ApiError(Code.TOKEN_INVALID);
      const row = await authRepository.findByAccessToken(hashToken(token), new Date());
      if (!row) throw new ApiError(Code.TOKEN_INVALID);
      // A member whose company requires two-factor sign-in reaches only what setting it up needs (the console
      // sends them to personal settings); everything else waits until it is set up (115): default deny.
      if (row.mustEnrolTwoFactor && !isEnrolmentRoute(request)) throw new ApiError(Code.TWO_FACTOR_SETUP_REQUIRED);
      const { mustEnrolTwoFactor: _, ...session } = row;
      // Company keys count only inside a company (the same set GET /api/v1/permission lists for the menu).
      const permissions = effectivePermissions(await permissionsRepository.keysOfRole(row.roleId), row.companyId !== null);
      request.auth = { ...session, permissions, ip: request.ip };
      if (access !== 'signed-in' && !permissions.has(access)) throw new ApiError(Code.NO_PERMISSION);
      // A read-only account (a shared login whose personal settings the console hides) changes nothing of its own.
      if (session.readOnly && typeof declared === 'object' && declared.kind === 'own-account' && declared.readOnlyAccounts !== 'allowed')
        throw new ApiError(Code.NO_PERMISSION);
    });
  },
);
