import {
  isPermissionKey,
  PERMISSION_KINDS,
  type PermissionKey,
  type PermissionKeyOfKind,
  type PermissionKind,
  permissionKind,
} from '@sunward/contracts/permissions';

/**
 * Who may call a route, and what the route does (issue 15.2). A bare string is a read: anyone, any signed-in
 * user, or a holder of a view key. A route that changes anything names an operate or manage key with its kind,
 * or says in words why no key is needed; the server refuses to start on anything else (accessProblem).
 */
export type ReadAccess = 'public' | 'signed-in' | PermissionKeyOfKind<'view'>;

export type RouteAccess =
  | ReadAccess
  /** A POST (or a GET named like an action) that changes nothing: the reason says so. */
  | { kind: 'view'; key: ReadAccess; readsOnly: string }
  | { kind: 'operate'; key: PermissionKeyOfKind<'operate'> }
  | { kind: 'manage'; key: PermissionKeyOfKind<'manage'> }
  /**
   * A write any signed-in user may make because it only touches their own account or their own records. A
   * read-only account is refused (2) unless readOnlyAccounts says it may (a message's read state, display
   * preferences).
   */
  | { kind: 'own-account'; reason: string; readOnlyAccounts?: 'allowed' }
  /** A write anyone may make (sign-in, sign-up, password reset): the reason says what protects it instead. */
  | { kind: 'public-write'; reason: string };

/** What the caller must hold: a permission key, a session, or nothing. */
export type RequiredAccess = PermissionKey | 'public' | 'signed-in';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The last path words of calls that change state whatever their method: spec 01 §7 writes some actions as
 * GET (firmware and version delete, boot and shutdown, the code senders).
 */
const ACTION_WORDS = new Set([
  'delete',
  'batchDelete',
  'remove',
  'boot',
  'shutdown',
  'restart',
  'retry',
  'terminate',
  'upgrade',
  'cutUpgrade',
  'batchUpgrade',
  'bind',
  'unbind',
  'lock',
  'unlock',
  'send',
  'getCode',
  'sendBindCode',
  'code',
]);

/** Whether a call changes state by its method, or by its name for a GET. */
export function changesState(method: string, url: string): boolean {
  const upper = method.toUpperCase();
  if (WRITE_METHODS.has(upper)) return true;
  if (upper !== 'GET') return false;
  const words = url.split('?')[0]?.split('/') ?? [];
  const last = words.filter((w) => w !== '' && !w.startsWith(':')).at(-1) ?? '';
  return ACTION_WORDS.has(last);
}

export function requiredAccess(access: RouteAccess): RequiredAccess {
  if (typeof access === 'string') return access;
  switch (access.kind) {
    case 'own-account':
      return 'signed-in';
    case 'public-write':
      return 'public';
    default:
      return access.key;
  }
}

const MIN_REASON = 12;

const article = (kind: PermissionKind) => (kind === 'operate' ? 'an' : 'a');

function kindOf(key: string): PermissionKind | undefined {
  return isPermissionKey(key) ? permissionKind(key) : undefined;
}

/**
 * Why a route's declared access is refused, or undefined when it is sound: an unknown key, a key whose kind
 * differs from the declared one, or a call that changes state guarded by a read (a view key, 'signed-in',
 * 'public') without a stated reason. The server runs it for every route and refuses to start on an answer.
 */
export function accessProblem(method: string, url: string, access: unknown, guarded: boolean): string | undefined {
  const route = `route ${method} ${url}`;
  if (access === undefined) return guarded ? `${route} declares no access (config.access)` : undefined;
  const write = changesState(method, url);
  if (typeof access === 'string') {
    if (access === 'public' || access === 'signed-in') {
      if (write)
        return `${route} changes state but is open to ${access === 'public' ? 'anyone' : 'any signed-in user'}: declare an operate or manage key, or { kind: 'own-account' | 'public-write', reason }`;
      return undefined;
    }
    const kind = kindOf(access);
    if (!kind) return `${route} names an unknown permission ${access}`;
    if (kind !== 'view') return `${route} names ${access} bare: declare { kind: '${kind}', key: '${access}' }`;
    if (write)
      return `${route} changes state but is guarded by the view key ${access}: declare an operate or manage key (or { kind: 'view', key, readsOnly } if it changes nothing)`;
    return undefined;
  }
  if (typeof access !== 'object' || access === null) return `${route} declares an access that is neither a string nor an object`;
  const declared = access as { kind?: unknown; key?: unknown; reason?: unknown; readsOnly?: unknown };
  const hasText = (value: unknown) => typeof value === 'string' && value.trim().length >= MIN_REASON;
  switch (declared.kind) {
    case 'own-account':
    case 'public-write':
      return hasText(declared.reason) ? undefined : `${route} is ${declared.kind} without a reason`;
    case 'view': {
      if (!hasText(declared.readsOnly)) return `${route} declares { kind: 'view' } without readsOnly: a bare view key is enough for a read`;
      if (declared.key === 'public' || declared.key === 'signed-in') return undefined;
      const kind = kindOf(String(declared.key));
      if (!kind) return `${route} names an unknown permission ${String(declared.key)}`;
      return kind === 'view' ? undefined : `${route} declares kind view with ${String(declared.key)}, ${article(kind)} ${kind} key`;
    }
    default: {
      if (!(PERMISSION_KINDS as readonly unknown[]).includes(declared.kind))
        return `${route} declares an unknown kind ${String(declared.kind)}`;
      const kind = kindOf(String(declared.key));
      if (!kind) return `${route} names an unknown permission ${String(declared.key)}`;
      if (kind !== declared.kind)
        return `${route} declares kind ${String(declared.kind)} with ${String(declared.key)}, ${article(kind)} ${kind} key`;
      return undefined;
    }
  }
}
