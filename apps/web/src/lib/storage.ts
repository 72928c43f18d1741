import type { CurrentUser, TokenResponse } from '@sunward/contracts/auth';
import type { z } from 'zod';

/**
 * Local storage keys of spec 01 §3 "Local state". `user` holds the session's tokens, `userInfo`
 * the current user. Sign-out removes user, userInfo, readOnly and styleType (spec 01 §4).
 */
export const StorageKey = {
  user: 'user',
  userInfo: 'userInfo',
  readOnly: 'readOnly',
  styleType: 'styleType',
  lang: 'lang',
  language: 'language',
  version: 'version',
  permissionRetrieval: 'permissionRetrieval',
  noticeNumber: 'noticeNumber',
} as const;

function readJson<T extends z.ZodType>(key: string, schema: T | undefined): z.infer<T> | undefined {
  const raw = localStorage.getItem(key);
  if (!raw || !schema) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The stored tokens were checked with contracts' TokenResponseSchema when they arrived (sign-in, refresh); read
 * back, they only need to still be a token pair. No zod here: the sign-in page reads them (issue 18, its weight).
 */
function readTokens(): TokenResponse | undefined {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(StorageKey.user) ?? 'null');
    if (typeof value !== 'object' || value === null) return undefined;
    const tokens = value as Partial<TokenResponse>;
    return typeof tokens.access_token === 'string' && typeof tokens.refresh_token === 'string' ? (value as TokenResponse) : undefined;
  } catch {
    return undefined;
  }
}

// The stored user is checked with contracts' CurrentUserSchema, loaded before the first paint of a signed-in
// start (main.tsx); a tab that signs in fetches the user instead.
let currentUserSchema: typeof import('@sunward/contracts/auth').CurrentUserSchema | undefined;

export async function loadStoredUserSchema(): Promise<void> {
  currentUserSchema ??= (await import('@sunward/contracts/auth')).CurrentUserSchema;
}

export const storedSession = {
  read: (): TokenResponse | undefined => readTokens(),
  write: (tokens: TokenResponse) => localStorage.setItem(StorageKey.user, JSON.stringify(tokens)),
};

export const storedUserInfo = {
  read: (): CurrentUser | undefined => readJson(StorageKey.userInfo, currentUserSchema),
  write: (user: CurrentUser) => {
    localStorage.setItem(StorageKey.userInfo, JSON.stringify(user));
    localStorage.setItem(StorageKey.readOnly, String(user.userid.readOnly));
  },
};

/** Spec 01 §4 sign-out: remove the user's data and flag that permissions must be fetched again. */
export function clearStoredUser(): void {
  for (const key of [StorageKey.user, StorageKey.userInfo, StorageKey.readOnly, StorageKey.styleType]) localStorage.removeItem(key);
  localStorage.setItem(StorageKey.permissionRetrieval, 'true');
}
