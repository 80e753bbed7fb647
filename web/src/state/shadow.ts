import type { Post, User } from '@pipit/contract';
import { hashKey, MutationObserver, notifyManager, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react';
import { notifyError } from '../lib/toast.tsx';
import { shadowKeys } from './keys.ts';
import { bump } from './posts.ts';

/**
 * Optimistic state as an overlay (as Bluesky's post shadows are): while a toggle is in flight, what
 * the viewer asked for is kept beside the cached answers, under the post's or person's id, and
 * merged in at render. Everything that shows the post (a timeline row, its page, an item that
 * wraps it) follows it, nothing in the cached lists is rewritten by hand, and undoing a failure is
 * dropping the overlay.
 */

export interface PostShadow {
  likedByMe?: boolean;
  bookmarkedByMe?: boolean;
  repostedByMe?: boolean;
}
export interface UserShadow {
  isFollowing?: boolean;
  /** A request to follow a locked account, asked or withdrawn. */
  followRequested?: boolean;
}
export interface HashtagShadow {
  following?: boolean;
}

/**
 * The overlay under `key`, read straight from the query cache and followed through its events: a query
 * observer for each of a post's three overlays (likes, bookmarks, reposts) was ~60 observers for a page of
 * twenty rows, the largest part of rendering and mounting a timeline on a slow phone.
 */
function useShadow<T>(key: QueryKey): T | undefined {
  const queryClient = useQueryClient();
  const hash = hashKey(key);
  const subscribe = useCallback(
    (changed: () => void) => {
      // Told in the same flush as the query observers (as useQuery is), so an overlay dropped together with
      // the answer written to the cache shows as one change, never the old answer without its overlay.
      const notify = notifyManager.batchCalls(changed);
      return queryClient.getQueryCache().subscribe((event) => {
        if (event.query.queryHash === hash) notify();
      });
    },
    [queryClient, hash],
  );
  const read = () => queryClient.getQueryCache().get<T>(hash)?.state.data;
  return useSyncExternalStore(subscribe, read, read);
}

export function applyPostShadow(post: Post, shadow: PostShadow | undefined): Post {
  let out = post;
  if (shadow?.likedByMe !== undefined && shadow.likedByMe !== out.likedByMe) {
    out = { ...out, likedByMe: shadow.likedByMe, likeCount: bump(out.likeCount, shadow.likedByMe ? 1 : -1) };
  }
  if (shadow?.bookmarkedByMe !== undefined && shadow.bookmarkedByMe !== out.bookmarkedByMe) {
    out = { ...out, bookmarkedByMe: shadow.bookmarkedByMe };
  }
  if (shadow?.repostedByMe !== undefined && shadow.repostedByMe !== out.repostedByMe) {
    out = {
      ...out,
      repostedByMe: shadow.repostedByMe,
      repostCount: bump(out.repostCount, shadow.repostedByMe ? 1 : -1),
    };
  }
  return out;
}

export function applyUserShadow<
  U extends Pick<User, 'isFollowing'> & Partial<Pick<User, 'followersCount' | 'followRequested'>>,
>(user: U, shadow: UserShadow | undefined): U {
  if (shadow?.followRequested !== undefined && shadow.followRequested !== user.followRequested) {
    user = { ...user, followRequested: shadow.followRequested };
  }
  if (shadow?.isFollowing === undefined || shadow.isFollowing === user.isFollowing) return user;
  const followersCount =
    user.followersCount === undefined ? undefined : bump(user.followersCount, shadow.isFollowing ? 1 : -1);
  return { ...user, isFollowing: shadow.isFollowing, ...(followersCount === undefined ? {} : { followersCount }) };
}

/** The post as the viewer sees it now: the cached answer with any toggle in flight applied. */
export function usePostView(post: Post): Post {
  const liking = useShadow<PostShadow>(shadowKeys.post(post.id));
  const keeping = useShadow<PostShadow>(shadowKeys.bookmark(post.id));
  const reposting = useShadow<PostShadow>(shadowKeys.repost(post.id));
  return useMemo(
    () => applyPostShadow(applyPostShadow(applyPostShadow(post, liking), keeping), reposting),
    [post, liking, keeping, reposting],
  );
}

/** The person as the viewer sees them now (following, followers count). */
export function useUserView<
  U extends Pick<User, 'id' | 'isFollowing'> & Partial<Pick<User, 'followersCount' | 'followRequested'>>,
>(user: U): U {
  const shadow = useShadow<UserShadow>(shadowKeys.user(user.id));
  return useMemo(() => applyUserShadow(user, shadow), [user, shadow]);
}

/** Whether the viewer follows the tag now: a toggle in flight, else `following` (the cached answer). */
export function useHashtagFollowing(tag: string, following: boolean): boolean {
  return useShadow<HashtagShadow>(shadowKeys.hashtag(tag))?.following ?? following;
}

interface ToggleOptions<Shadow, Answer> {
  /** Where the overlay lives (shadowKeys.post(id), shadowKeys.user(id)). */
  shadowKey: QueryKey;
  /** The overlay for "on" or "off". */
  shadow: (on: boolean) => Shadow;
  /** The call; idempotent, so a quick on-off-on ends where the last click asked. */
  send: (on: boolean) => Promise<Answer>;
  /** The server's answer, handed to the resource's event function. */
  settled: (answer: Answer) => void;
  /** Said when the call fails (the overlay is dropped: the screen shows the server's state again). */
  failure: (on: boolean, error: unknown) => string;
}

/**
 * One on/off action of the viewer's on something (like, follow; later repost, bookmark, block):
 * shown at once through the overlay, each answer written to the cache by its event function, the
 * overlay dropped when the last call of the burst has settled, so a quick like-unlike never
 * flickers and a failure puts the server's state back.
 */
export function useToggle<Shadow, Answer>(options: ToggleOptions<Shadow, Answer>) {
  const queryClient = useQueryClient();
  // The options of the latest render, for a press that comes after it.
  const latest = useRef(options);
  latest.current = options;
  // The mutation is made when pressed: no observer per button while nothing happens (three per row of a
  // timeline), and nothing on screen reads its state.
  return useCallback(
    (on: boolean) => {
      const { shadowKey, shadow, send, settled, failure } = latest.current;
      const mutationKey = ['toggle', ...shadowKey];
      const mutation = new MutationObserver(queryClient, {
        mutationKey,
        mutationFn: send,
        onMutate: (value: boolean) => {
          queryClient.setQueryData<Shadow>(shadowKey, shadow(value));
        },
        onSuccess: settled,
        onError: (error, value) => notifyError(failure(value, error)),
        onSettled: () => {
          // This call still counts as under way here: 1 means it was the last.
          if (queryClient.isMutating({ mutationKey }) <= 1) queryClient.setQueryData<Shadow | object>(shadowKey, {});
        },
      });
      // A failure is told by onError and undone by onSettled.
      mutation.mutate(on).catch(() => {});
    },
    [queryClient],
  );
}
