import { api, type User } from '@pipit/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { userKeys } from '../../../lib/query-keys.ts';

/** GET /api/users/:id: a public profile as the viewer sees it (counts, isFollowing). */
export const getUser = (id: string) => apiFetch<User>(api.user(id));

export const userQueryOptions = (id: string) =>
  queryOptions({ queryKey: userKeys.detail(id), queryFn: () => getUser(id) });

/** Skipped when there is no id, as the seed says. */
export function useUser(id: string | null | undefined) {
  return useQuery({ ...userQueryOptions(id ?? ''), enabled: Boolean(id) });
}

/** GET /api/users/by-username/:username: where an @mention points. */
export const getUserByUsername = (username: string) => apiFetch<User>(api.userByUsername(username));

export function useUserByUsername(username: string) {
  return useQuery({ queryKey: userKeys.byUsername(username), queryFn: () => getUserByUsername(username) });
}
