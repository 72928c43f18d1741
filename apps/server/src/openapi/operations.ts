import { Code, type ResponseCode } from '@sunward/contracts/codes';
import { isMessageKey, translate } from '@sunward/contracts/messages';
import { type RouteAccess, requiredAccess } from '../plugins/route-access.js';

/**
 * What every operation of the API document carries beyond its route's schema (issue 25): an operationId made
 * from its method and path, a description saying who may call it, `security: []` when no session is needed,
 * and the envelope's business codes it can answer (`x-codes`). Plain functions; plugins/openapi.ts applies them.
 */

/** The route options a route may add to its schema for the document. */
export interface RouteDocumentation {
  summary?: string;
  description?: string;
  operationId?: string;
  /** Business codes the route answers beyond those of its kind (validation, session, permission, limits). */
  'x-codes'?: readonly ResponseCode[];
}

const CODE_NAMES = new Map<number, string>(Object.entries(Code).map(([name, code]) => [code, name]));

/**
 * `GET /api/v1/plant/:id/power/day` → `getPlantByIdPowerDay`: the method, then each path word in PascalCase,
 * a parameter (`:id` or `{id}`) as `By<Name>`; the `/api/v1` prefix is left out. Stable while the path is.
 */
export function operationIdFor(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/v1(?=\/|$)/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      if (segment.startsWith(':')) return `By${pascal(segment.slice(1).replace(/\(.*$/, ''))}`;
      if (segment.startsWith('{')) return `By${pascal(segment.slice(1, -1))}`;
      if (segment === '*') return 'Any';
      return pascal(segment);
    });
  return `${method.toLowerCase()}${words.join('')}`;
}

function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** Who may call the route, in one sentence for its description. */
export function accessSentence(access: RouteAccess | undefined): string {
  if (access === undefined) return 'Answers without a session (the route checks its own credentials, if any).';
  if (typeof access === 'string') return readSentence(access);
  switch (access.kind) {
    case 'view':
      return `${readSentence(access.key)} Changes nothing: ${access.readsOnly}.`;
    case 'operate':
    case 'manage':
      return `Needs the ${access.kind} permission \`${access.key}\` in a session.`;
    case 'own-account':
      return `Any signed-in user, on their own account${access.readOnlyAccounts === 'allowed' ? ' (read-only accounts too)' : ''}: ${access.reason}.`;
    case 'public-write':
      return `Public, no session needed: ${access.reason}.`;
  }
}

function readSentence(access: string): string {
  if (access === 'public') return 'Public, no session needed.';
  if (access === 'signed-in') return 'Any signed-in user.';
  return `Needs the view permission \`${access}\` in a session.`;
}

/** Whether the route answers without a bearer session (the document says `security: []`). */
export function isPublic(access: RouteAccess | undefined): boolean {
  return access === undefined || requiredAccess(access) === 'public';
}

/** The business codes an operation can answer: those of its kind, then the ones its route declares. */
export function operationCodes(access: RouteAccess | undefined, hasInput: boolean, declared: readonly number[] = []): number[] {
  const codes = new Set<number>([Code.OK]);
  if (hasInput) codes.add(Code.VALIDATION);
  if (!isPublic(access)) {
    codes.add(Code.TOKEN_INVALID);
    const required = access === undefined ? 'public' : requiredAccess(access);
    // A permission key, or a write a read-only account may not make.
    if (required !== 'signed-in' || (typeof access === 'object' && access.kind === 'own-account' && access.readOnlyAccounts !== 'allowed'))
      codes.add(Code.NO_PERMISSION);
  }
  for (const code of declared) codes.add(code);
  codes.add(Code.RATE_LIMITED);
  codes.add(Code.SERVER_ERROR);
  return [...codes].sort((a, b) => a - b);
}

/** `x-codes`: each code with its name in the catalogue and its English message. */
export function describeCodes(codes: readonly number[]): { code: number; name: string; message: string }[] {
  return codes.map((code) => {
    const key = `code.${code}`;
    return { code, name: CODE_NAMES.get(code) ?? 'UNKNOWN', message: isMessageKey(key) ? translate('en', key) : '' };
  });
}

/** Business codes a route may declare are catalogue codes; an unknown number is a mistake in the route. */
export function unknownCodes(codes: readonly number[]): number[] {
  return codes.filter((code) => !CODE_NAMES.has(code));
}
