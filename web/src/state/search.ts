import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';
import { hashtagKeys, userKeys } from './keys.ts';

/**
 * GET /api/search/people: name or username starting with `q`; skipped while `q` is blank. `resolve`:
 * a handle of someone elsewhere (`@user@host`) is looked up at their server (the search page, not the
 * suggestions while typing).
 */
export const useSearchPeople = (q: string, limit: number, resolve = false) =>
  useQuery({
    queryKey: [...userKeys.search(q, limit), resolve],
    queryFn: () => call('searchPeople', { query: { q, limit, ...(resolve ? { resolve: 'true' as const } : {}) } }),
    enabled: q.trim().length > 0,
    staleTime: 30_000,
    // While typing, the last suggestions stay until the next ones come.
    placeholderData: keepPreviousData,
  });

/** GET /api/search/hashtags: tags starting with `q`, most used first. */
export const useSearchHashtags = (q: string) =>
  useQuery({
    queryKey: hashtagKeys.search(q),
    queryFn: () => call('searchHashtags', { query: { q, limit: 20 } }),
    enabled: q.trim().length > 0,
    staleTime: 30_000,
  });
