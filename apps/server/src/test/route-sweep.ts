import type { FastifyInstance } from 'fastify';
import type { RouteAccessEntry } from '../plugins/auth.js';
import { defOf, sampleOf, type ZodDef } from './zod-def.js';

/*
 * The route walk the tenant sweeps share (tenant isolation, issue 7; channel hierarchy, issue 24): every
 * route the running server has (a new route is covered without touching the tests), and a request for
 * each built from the route's own schemas with a target's ids, serial numbers and accounts.
 */

// Streams never end (live); sign-in and sign-out calls would end the sweep's own sessions.
const SKIPPED = [/^\/api\/v1\/live$/, /^\/oauth\//, /^\/anonymous\//];

export type SweepMethod = 'GET' | 'POST' | 'DELETE';

/** What the probes aim at: the ids, serial numbers and accounts of the data the caller must not reach. */
export interface SweepTarget {
  companyId: number;
  sns: readonly string[];
  accounts: readonly string[];
}

/** Every signed-in API route the sweeps walk. */
export function sweptRoutes(app: FastifyInstance): RouteAccessEntry[] {
  return app.routeAccessTable.filter(
    (r) =>
      ['GET', 'POST', 'DELETE'].includes(r.method) &&
      r.url.startsWith('/api/') &&
      r.requires !== 'public' &&
      r.requires !== undefined &&
      !SKIPPED.some((p) => p.test(r.url)),
  );
}

/** Whether the route takes ids anywhere (path, body or query). */
export function usesIds(route: RouteAccessEntry): boolean {
  return /:\w+/.test(route.url) || route.schema?.body !== undefined || route.schema?.querystring !== undefined;
}

/** A value for one field: the target's id or SN where a reference is expected, something plausible elsewhere. */
function sample(target: SweepTarget, def: ZodDef | undefined, key: string, id: number): unknown {
  return sampleOf(def, key, {
    number: () => id,
    string: (k) => {
      if (/sn$/i.test(k)) return target.sns[id % target.sns.length];
      if (/account|email|username/i.test(k)) return target.accounts[id % target.accounts.length];
      if (/id$/i.test(k)) return String(id);
      return 'Probe1';
    },
    other: () => id,
  });
}

/** Fields no caller may set through a body; sent with every object body to prove they are ignored or refused. */
function forbidden(target: SweepTarget, id: number) {
  return {
    role: 'platform_admin',
    roleId: 1,
    roleKey: 'platform_admin',
    companyId: target.companyId,
    parentId: target.companyId,
    readOnly: false,
    ownerId: id,
    owner: id,
  };
}

/** The request for one route aimed at one id of the target. */
export function requestFor(target: SweepTarget, route: RouteAccessEntry, id: number) {
  const params = route.url.replace(/:(\w+)/g, (_, name: string) =>
    /sn$/i.test(name) ? encodeURIComponent(target.sns[id % target.sns.length] ?? 'X') : String(id),
  );
  const query = sample(target, defOf(route.schema?.querystring), '', id);
  const body = sample(target, defOf(route.schema?.body), '', id);
  const json =
    body && typeof body === 'object' && !Array.isArray(body) ? { ...forbidden(target, id), ...body } : (body ?? forbidden(target, id));
  const queryText =
    query && typeof query === 'object'
      ? Object.fromEntries(
          Object.entries(query as Record<string, unknown>)
            .filter(([, v]) => v !== undefined && typeof v !== 'object')
            .map(([k, v]) => [k, String(v)]),
        )
      : {};
  return { url: params, query: queryText, json };
}
