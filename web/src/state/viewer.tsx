import type { CurrentUser, Session } from '@pipit/contract';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ApiRequestError, call } from '../lib/api-client.ts';
import { forgetEarly, rememberSignedIn } from '../lib/early.ts';
import { getSession, isSessionBroadcast, logError, onSessionChange, updateSession } from '../lib/session.ts';
import { viewerKeys } from './keys.ts';

/**
 * The viewer: who is asking. One source of truth, the session of /api/auth held as a query, and the
 * signed-in person's own profile (GET /api/current) keyed by that session, so a profile can never
 * outlive the session it was fetched for.
 */

export type ViewerStatus = 'loading' | 'authenticated' | 'unauthenticated';

/**
 * The session as every reader sees it. It changes only when told to (sign-in, sign-out, another
 * tab, the poll and focus of <ViewerSync>), never because a screen mounted.
 */
const sessionQuery = queryOptions({
  queryKey: viewerKeys.session(),
  queryFn: () => getSession(),
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
  refetchOnWindowFocus: false,
  refetchOnReconnect: false,
  retry: false,
});

/** GET /api/current: the signed-in person, or null when the server says we are signed out. */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await call('current');
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  }
}

export const currentUserQueryOptions = (email: string | null) =>
  queryOptions({
    queryKey: viewerKeys.meOf(email),
    queryFn: getCurrentUser,
    // Keeps the notifications dot fresh while the app stays open.
    refetchInterval: 60_000,
  });

export interface Viewer {
  status: ViewerStatus;
  session: Session | null;
  /** The signed-in person (null for visitors and while loading). */
  user: CurrentUser | null;
  /** True until both the session and the person are known, so screens can wait instead of flashing the visitor view. */
  isLoading: boolean;
}

export function useViewer(): Viewer {
  const session = useQuery(sessionQuery);
  const status: ViewerStatus = session.isPending ? 'loading' : session.data ? 'authenticated' : 'unauthenticated';
  const me = useQuery({
    ...currentUserQueryOptions(session.data?.user.email ?? null),
    enabled: status === 'authenticated',
  });
  const authenticated = status === 'authenticated';
  return {
    status,
    session: session.data ?? null,
    user: authenticated ? (me.data ?? null) : null,
    isLoading: status === 'loading' || (authenticated && me.isPending),
  };
}

/**
 * Whose session this is: undefined while loading, '' for a visitor, else the session's email. For
 * what depends on the session alone (the live stream), without asking for the profile.
 */
export function useSessionIdentity(): string | undefined {
  const session = useQuery(sessionQuery);
  return session.isPending ? undefined : (session.data?.user.email ?? '');
}

/** Fetches the session again now, replacing any fetch under way (its answer may predate a change). */
async function refreshSession(queryClient: QueryClient, { broadcast }: { broadcast: boolean }) {
  await queryClient.cancelQueries({ queryKey: viewerKeys.session(), exact: true });
  await queryClient.fetchQuery({ ...sessionQuery, queryFn: () => getSession({ broadcast }), staleTime: 0 });
}

/** POSTs new session data (next-auth's `update()`); the answered session replaces ours. */
export function useUpdateSession() {
  const queryClient = useQueryClient();
  return async (data?: unknown) => {
    if (!queryClient.getQueryData(viewerKeys.session())) return null;
    const session = await updateSession(data);
    if (session) {
      await queryClient.cancelQueries({ queryKey: viewerKeys.session(), exact: true });
      queryClient.setQueryData(viewerKeys.session(), session);
    }
    return session;
  };
}

const isSessionQuery = (key: readonly unknown[]) => key[0] === viewerKeys.all[0] && key[1] === 'session';

interface ViewerSyncProps {
  /** Poll the session every N seconds while signed in; 0 never polls. */
  refetchInterval?: number;
  /** Fetch the session again when the tab becomes visible (on by default). */
  refetchOnWindowFocus?: boolean;
}

/**
 * Keeps the session current (focus, poll, other tabs, sign-in and sign-out here) and, when the
 * person behind it changes, resets every other cached answer: they were made for someone else.
 * Mount once, after the app (its effects then run after the screens have seen the change, so queries
 * that need a session are disabled before the reset and do not refetch into a 401).
 */
export function ViewerSync({ refetchInterval = 0, refetchOnWindowFocus = true }: ViewerSyncProps) {
  const queryClient = useQueryClient();
  const session = useQuery({
    ...sessionQuery,
    refetchOnWindowFocus: refetchOnWindowFocus ? 'always' : false,
    refetchInterval: (query) => (refetchInterval && query.state.data ? refetchInterval * 1000 : false),
  });

  useEffect(() => {
    const stop = onSessionChange((change) => refreshSession(queryClient, change));
    const onStorage = (event: StorageEvent) => {
      // The message only says "something changed": fetch our own session, without echoing it.
      if (isSessionBroadcast(event)) {
        refreshSession(queryClient, { broadcast: false }).catch((error: unknown) =>
          logError('CLIENT_SESSION_ERROR', { message: error instanceof Error ? error.message : String(error) }),
        );
      }
    };
    window.addEventListener('storage', onStorage);
    return () => {
      stop();
      window.removeEventListener('storage', onStorage);
    };
  }, [queryClient]);

  const identity = session.isPending ? undefined : (session.data?.user.email ?? null);
  const previous = useRef(identity);
  useEffect(() => {
    if (identity === undefined) return;
    rememberSignedIn(identity !== null);
    if (previous.current !== undefined && previous.current !== identity) {
      forgetEarly();
      queryClient.resetQueries({ predicate: (query) => !isSessionQuery(query.queryKey) });
    }
    previous.current = identity;
  }, [identity, queryClient]);
  return null;
}
