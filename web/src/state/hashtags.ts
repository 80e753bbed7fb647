import type { Hashtag } from '@pipit/contract';
import { type QueryClient, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';
import { hashtagKeys, postKeys } from './keys.ts';
import { pagedQuery } from './paged.ts';

/** GET /api/hashtags/trending: the tags the most people used in the last 24 hours. */
export const trendingQueryOptions = () =>
  queryOptions({
    queryKey: hashtagKeys.trending(),
    queryFn: () => call('trendingHashtags'),
    staleTime: 60_000,
    refetchOnWindowFocus: false,
  });

export const useTrending = () => useQuery(trendingQueryOptions());

/** GET /api/hashtags/:tag/follow: whether the signed-in member follows the tag (its stored form). */
export const hashtagQueryOptions = (tag: string) =>
  queryOptions({ queryKey: hashtagKeys.detail(tag), queryFn: () => call('hashtag', { params: { tag } }) });

export const useHashtag = (tag: string, enabled: boolean) => useQuery({ ...hashtagQueryOptions(tag), enabled });

/** GET /api/followed-hashtags: the tags the member follows, newest follow first, cursor-paged. */
export const followedHashtagsQueryOptions = () =>
  pagedQuery(hashtagKeys.followed(), (cursor) => call('followedHashtags', { query: { cursor } }));

export const useFollowedHashtags = () => useInfiniteQuery(followedHashtagsQueryOptions());

/**
 * The viewer followed or unfollowed a tag (the server's answer): the tag's page takes it, and the
 * followed list and the Following timeline (which the tag's posts join or leave) are fetched again.
 * A row of the followed list stays until then, so an unfollow there is undone with one click.
 */
export function hashtagFollowChanged(queryClient: QueryClient, hashtag: Hashtag) {
  queryClient.setQueryData(hashtagKeys.detail(hashtag.tag), hashtag);
  // An unfollow leaves the list on screen as it is (fetched again when next opened).
  queryClient.invalidateQueries({
    queryKey: hashtagKeys.followed(),
    refetchType: hashtag.following ? 'active' : 'none',
  });
  queryClient.invalidateQueries({ queryKey: postKeys.timeline('following') });
}
