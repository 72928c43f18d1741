import { Code } from '@sunward/contracts/codes';
import { toLanParam } from '@sunward/contracts/languages';
import { apiRequest, lazySchema } from '../../lib/api-client';
import { currentLanguage } from '../../lib/i18n';
import { storedSession } from '../../lib/storage';

// The session's calls run on the sign-in page: their contracts' schemas (and zod) load on first use (issue 18).
const schemas = () => import('./schemas');
const TokenResponseSchema = lazySchema(async () => (await schemas()).TokenResponseSchema);
const CurrentUserSchema = lazySchema(async () => (await schemas()).CurrentUserSchema);
const AboutSchema = lazySchema(async () => (await schemas()).AboutSchema);
const NoData = lazySchema(async () => (await schemas()).NoDataSchema);
const Permissions = lazySchema(async () => (await schemas()).PermissionListSchema);
const Count = lazySchema(async () => (await schemas()).UnreadCountSchema);

export function signIn(account: string, password: string) {
  return apiRequest('/oauth/token', {
    method: 'POST',
    anonymous: true,
    form: { grant_type: 'password', username: account, password },
    schema: TokenResponseSchema,
    // The sign-in form shows these beside the fields instead of a toast; 112 asks for the second factor.
    tolerate: [Code.WRONG_CREDENTIALS, Code.ACCOUNT_DISABLED, Code.SIGN_IN_LOCKED, Code.VALIDATION, Code.SECOND_FACTOR_REQUIRED],
  });
}

/** Second step of a two-factor sign-in (issue 7): the challenge of code 112 and an authenticator or recovery code. */
export function signInSecondFactor(challenge: string, code: string) {
  return apiRequest('/oauth/token', {
    method: 'POST',
    anonymous: true,
    form: { grant_type: 'second_factor', challenge, code },
    schema: TokenResponseSchema,
    tolerate: [Code.VERIFICATION_CODE_WRONG, Code.SECOND_FACTOR_EXPIRED, Code.SIGN_IN_LOCKED, Code.VALIDATION],
  });
}

/** Ends the session on the server; the caller clears local state whatever the answer. */
export function revokeSession() {
  const session = storedSession.read();
  return apiRequest('/oauth/revoke', {
    method: 'POST',
    json: session ? { token: session.refresh_token } : {},
    schema: NoData,
    tolerate: [Code.TOKEN_INVALID],
  });
}

export function fetchCurrentUser() {
  return apiRequest('/api/v1/user', { query: { lan: toLanParam(currentLanguage()) }, schema: CurrentUserSchema });
}

export function fetchPermissions() {
  return apiRequest('/api/v1/permission', {
    query: { lan: toLanParam(currentLanguage()), source: 'web' },
    schema: Permissions,
  });
}

export function fetchAbout() {
  return apiRequest('/anonymous/about', { anonymous: true, schema: AboutSchema });
}

export function fetchUnreadCount() {
  return apiRequest('/api/v1/message/count', { schema: Count });
}
