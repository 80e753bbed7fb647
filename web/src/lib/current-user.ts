import { api, type CurrentUser } from '@pipit/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiRequestError, apiFetch } from './api-client.ts';
import { userKeys } from './query-keys.ts';
import { useSession } from './session.tsx';

/** GET /api/current: the signed-in person, or null when the server says we are signed out. */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await apiFetch<CurrentUser>(api.current);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  }
}

export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.current(),
    queryFn: getCurrentUser,
    // Keeps the notifications dot fresh while the app stays open.
    refetchInterval: 60_000,
  });

/**
 * The signed-in person (null for visitors). `isLoading` is true until both the session and the
 * user are known, so screens can wait instead of flashing the visitor view.
 */
export function useCurrentUser() {
  const { status } = useSession();
  const query = useQuery({ ...currentUserQueryOptions(), enabled: status === 'authenticated' });
  const user = status === 'authenticated' ? (query.data ?? null) : null;
  return { user, isLoading: status === 'loading' || (status === 'authenticated' && query.isPending) };
}
