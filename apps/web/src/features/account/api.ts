import {
  AccountInfoSchema,
  AvatarUploadedSchema,
  CodeSentSchema,
  PasswordChangedSchema,
  PasswordPolicySchema,
  type Personalized,
  PersonalizedSchema,
  type ProfileUpdate,
  RecoveryCodesSchema,
  SignupResultSchema,
  TwoFactorSetupSchema,
} from '@sunward/contracts/account';
import { Code } from '@sunward/contracts/codes';
import { z } from 'zod';
import { ApiCallError, apiRequest, authorizedFetch, fieldErrors, readEnvelope } from '../../lib/api-client';
import { fetchPersonalized, PERSONALIZED_KEY } from '../../lib/personalized';

/** Refusals the account screens show beside the field or in the form, not as a toast. */
const HANDLED = [
  Code.VALIDATION,
  Code.VERIFICATION_CODE_WRONG,
  Code.VERIFICATION_CODE_EXPIRED,
  Code.ACCOUNT_REGISTERED,
  Code.ACCOUNT_NOT_REGISTERED,
  Code.ACCOUNT_FORMAT_INVALID,
  Code.RATE_LIMITED,
  Code.OLD_PASSWORD_WRONG,
  Code.CONFIRM_PASSWORD_WRONG,
  Code.TWO_FACTOR_REQUIRED_BY_COMPANY,
  Code.ALREADY,
  Code.NO_PERMISSION,
];

export const accountKeys = {
  info: ['account', 'info'] as const,
  personalized: PERSONALIZED_KEY,
  policy: ['account', 'policy'] as const,
};

// ---- anonymous --------------------------------------------------------------------------------------------

export const fetchPasswordPolicy = () =>
  apiRequest('/anonymous/passwordPolicy', { anonymous: true, schema: PasswordPolicySchema, tolerate: HANDLED });

export const checkAccount = (account: string, type: 'register' | 'reset') =>
  apiRequest('/anonymous/checkAccount', { anonymous: true, query: { account, type }, schema: z.null(), tolerate: HANDLED });

export const requestCode = (account: string, type: 'register' | 'reset') =>
  apiRequest('/anonymous/getCode', { anonymous: true, query: { account, type }, schema: CodeSentSchema, tolerate: HANDLED });

export const checkCode = (account: string, code: string, type: 'register' | 'reset') =>
  apiRequest('/anonymous/checkCode', { anonymous: true, query: { account, code, type }, schema: z.null(), tolerate: HANDLED });

export const signup = (body: { account: string; code: string; password: string; nickname?: string; agree: boolean }) =>
  apiRequest('/anonymous/signup', { method: 'POST', anonymous: true, json: body, schema: SignupResultSchema, tolerate: HANDLED });

export const resetPassword = (body: { account: string; code: string; password: string }) =>
  apiRequest('/anonymous/resetPwd', { method: 'POST', anonymous: true, json: body, schema: z.null(), tolerate: HANDLED });

export const sendBindCode = (account: string) =>
  apiRequest('/anonymous/sendBindCode', { anonymous: true, query: { account }, schema: CodeSentSchema, tolerate: HANDLED });

// ---- personal settings ------------------------------------------------------------------------------------

export const fetchAccountInfo = () => apiRequest('/api/v1/user/accountInfo', { schema: AccountInfoSchema });

export const updateProfile = (userId: number, body: ProfileUpdate) =>
  apiRequest(`/api/v1/user/${userId}`, { method: 'POST', json: body, schema: AccountInfoSchema, tolerate: HANDLED });

export const changePassword = (userId: number, body: { oldPassword: string; password: string }) =>
  apiRequest(`/api/v1/user/${userId}/pwd`, { method: 'POST', json: body, schema: PasswordChangedSchema, tolerate: HANDLED });

/** GET /api/v1/user/personalized, shared with every page through lib/personalized. */
export { fetchPersonalized };

export const savePersonalized = (changes: Partial<Personalized>) =>
  apiRequest('/api/v1/user/personalized', { method: 'POST', json: changes, schema: PersonalizedSchema, tolerate: HANDLED });

export async function uploadAvatar(file: File) {
  const body = new FormData();
  body.append('file', file, file.name);
  const response = await authorizedFetch('/api/v1/user/avatar', { method: 'POST', body, headers: { accept: 'application/json' } });
  return readEnvelope(response, AvatarUploadedSchema);
}

export const startTwoFactor = () =>
  apiRequest('/api/v1/user/twoFactor/setup', { method: 'POST', json: {}, schema: TwoFactorSetupSchema, tolerate: HANDLED });

export const enableTwoFactor = (code: string) =>
  apiRequest('/api/v1/user/twoFactor/enable', { method: 'POST', json: { code }, schema: RecoveryCodesSchema, tolerate: HANDLED });

export const disableTwoFactor = (password: string) =>
  apiRequest('/api/v1/user/twoFactor/disable', { method: 'POST', json: { password }, schema: z.null(), tolerate: HANDLED });

export const newRecoveryCodes = (password: string) =>
  apiRequest('/api/v1/user/twoFactor/recoveryCodes', {
    method: 'POST',
    json: { password },
    schema: RecoveryCodesSchema,
    tolerate: HANDLED,
  });

// ---- refusals ---------------------------------------------------------------------------------------------

/** Field → message of a code-4 refusal (one reading for every form, in lib/api-client). */
export { fieldErrors };

/** The server's words for a refusal: the field's own problem for code 4, else the message of the code. */
export function refusalText(error: unknown): string | undefined {
  if (!(error instanceof ApiCallError)) return undefined;
  return Object.values(fieldErrors(error))[0] ?? (error.message || undefined);
}

export function refusalCode(error: unknown): number | undefined {
  return error instanceof ApiCallError ? error.code : undefined;
}
