import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';
import { hashtagKeys } from './keys.ts';

/** GET /api/hashtags/trending: the tags the most people used in the last 24 hours. */
export const trendingQueryOptions = () =>
  queryOptions({
    queryKey: hashtagKeys.trending(),
    queryFn: () => call('trendingHashtags'),
    staleTime: 60_000,
    refetchOnWindowFocus: false,
  });

export const useTrending = () => useQuery(trendingQueryOptions());
