import { api, type UserSummary } from '@pipit/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { userKeys } from '../../../lib/query-keys.ts';

/** GET /api/users: Who To Follow (never oneself nor people already followed). */
export const getSuggestions = () => apiFetch<UserSummary[]>(api.users);

export const suggestionsQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.suggestions(),
    queryFn: getSuggestions,
    staleTime: 5 * 60_000,
    // Someone just followed leaves the list (follow-user.ts); the rest stays put while reading.
    refetchOnWindowFocus: false,
  });

export const useSuggestions = () => useQuery(suggestionsQueryOptions());
