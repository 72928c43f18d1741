import { DEFAULT_PERSONALIZED, type Personalized, PersonalizedSchema } from '@sunward/contracts/account';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { StorageKey } from './storage';

/** The query the personalized settings live in (personal settings writes its saved answer here). */
export const PERSONALIZED_KEY = ['account', 'personalized'] as const;

/** GET /api/v1/user/personalized. */
export const fetchPersonalized = () => apiRequest('/api/v1/user/personalized', { schema: PersonalizedSchema });

/**
 * The signed-in user's personalized settings (GET /api/v1/user/personalized), applied across the console:
 * the look (styleType), the page `/` opens, and rows per page in lists. Loaded once per session; personal
 * settings writes the saved answer into the same query, so a change applies at once without a reload.
 * Until the answer arrives, the look kept in local storage (spec 01 §3 "styleType") avoids a flash.
 */
export function usePersonalized(): Personalized & { loaded: boolean } {
  const query = useQuery({ queryKey: PERSONALIZED_KEY, queryFn: fetchPersonalized, staleTime: Number.POSITIVE_INFINITY });
  if (query.data) return { ...query.data, loaded: true };
  // A failed load leaves the defaults: the console works, as it did before the user chose anything.
  return { ...DEFAULT_PERSONALIZED, styleType: storedStyleType(), loaded: query.isError };
}

function storedStyleType(): Personalized['styleType'] {
  return localStorage.getItem(StorageKey.styleType) === 'dark' ? 'dark' : 'light';
}

/** Keeps the look for the next load's first paint (sign-out removes it with the rest of the user's data). */
export function rememberStyleType(styleType: Personalized['styleType']): void {
  localStorage.setItem(StorageKey.styleType, styleType);
}

/** Rows per page in the console's lists. */
export function usePageSize(): number {
  return usePersonalized().pageSize;
}

/** The page `/` opens: the user's choice when their role can open it, else the first page they can. */
export function chooseHomePage(
  preferred: Personalized['homePage'],
  canOpenPath: (path: string) => boolean,
  fallback: string | undefined,
): string | undefined {
  return canOpenPath(preferred) ? preferred : fallback;
}
