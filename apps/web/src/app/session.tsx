import type { CurrentUser } from '@sunward/contracts/auth';
import type { PermissionEntry, PermissionKey } from '@sunward/contracts/permissions';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { fetchCurrentUser, fetchPermissions, revokeSession, signIn as signInCall, signInSecondFactor } from '../features/auth/api';
import { clearStoredUser, StorageKey, storedSession, storedUserInfo } from '../lib/storage';

export interface Session {
  signedIn: boolean;
  user: CurrentUser['userid'] | undefined;
  /** Every permission the server granted, menus and buttons. */
  permissions: PermissionEntry[] | undefined;
  permissionsError: boolean;
  has(key: PermissionKey): boolean;
  /** Rejects with ApiCallError 112 (data: challenge) when the account signs in with a second factor. */
  signIn(account: string, password: string): Promise<void>;
  /** Completes a two-factor sign-in with the challenge of code 112 and an authenticator or recovery code. */
  completeSecondFactor(challenge: string, code: string): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [signedIn, setSignedIn] = useState(() => storedSession.read() !== undefined);

  const userQuery = useQuery({
    queryKey: ['current-user'],
    queryFn: async () => {
      const user = await fetchCurrentUser();
      storedUserInfo.write(user);
      return user;
    },
    enabled: signedIn,
    initialData: signedIn ? storedUserInfo.read() : undefined,
    staleTime: 60_000,
  });

  // Spec 01 §6: permissions load once after sign-in; routes and menu are derived from them.
  const permissionsQuery = useQuery({
    queryKey: ['permissions'],
    queryFn: async () => {
      const list = await fetchPermissions();
      localStorage.removeItem(StorageKey.permissionRetrieval);
      return list;
    },
    enabled: signedIn,
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });

  const signIn = useCallback(
    async (account: string, password: string) => {
      const tokens = await signInCall(account, password);
      storedSession.write(tokens);
      queryClient.clear();
      setSignedIn(true);
    },
    [queryClient],
  );

  const completeSecondFactor = useCallback(
    async (challenge: string, code: string) => {
      const tokens = await signInSecondFactor(challenge, code);
      storedSession.write(tokens);
      queryClient.clear();
      setSignedIn(true);
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    await revokeSession().catch(() => undefined);
    clearStoredUser();
    // Spec 01 §4: sign-out reloads, so no state of the previous user survives in memory.
    window.location.assign('/login');
  }, []);

  const value = useMemo<Session>(() => {
    const keys = new Set(permissionsQuery.data?.map((p) => p.key));
    return {
      signedIn,
      user: userQuery.data?.userid,
      permissions: permissionsQuery.data,
      permissionsError: permissionsQuery.isError,
      has: (key) => keys.has(key),
      signIn,
      completeSecondFactor,
      signOut,
    };
  }, [signedIn, userQuery.data, permissionsQuery.data, permissionsQuery.isError, signIn, completeSecondFactor, signOut]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** Spec 01 §6 directive: renders children only when the user's role is in the allowed list. */
export function RoleGate({ roles, children }: { roles: readonly string[]; children: ReactNode }) {
  const { user } = useSession();
  return user && roles.includes(user.role) ? children : null;
}
