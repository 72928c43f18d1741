import { type CurrentUser, CurrentUserSchema, type TokenResponse, TokenResponseSchema } from '@sunward/contracts/auth';
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

function readJson<T extends z.ZodType>(key: string, schema: T): z.infer<T> | undefined {
  const raw = localStorage.getItem(key);
  if (!raw) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export const storedSession = {
  read: (): TokenResponse | undefined => readJson(StorageKey.user, TokenResponseSchema),
  write: (tokens: TokenResponse) => localStorage.setItem(StorageKey.user, JSON.stringify(tokens)),
};

export const storedUserInfo = {
  read: (): CurrentUser | undefined => readJson(StorageKey.userInfo, CurrentUserSchema),
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
