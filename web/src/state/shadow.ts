import type { Post, User } from '@pipit/contract';
import { type QueryKey, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
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
}

function useShadow<T>(key: QueryKey): T | undefined {
  return useQuery<T>({ queryKey: key, queryFn: skipToken, staleTime: Number.POSITIVE_INFINITY }).data;
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

export function applyUserShadow<U extends Pick<User, 'isFollowing'> & Partial<Pick<User, 'followersCount'>>>(
  user: U,
  shadow: UserShadow | undefined,
): U {
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
export function useUserView<U extends Pick<User, 'id' | 'isFollowing'> & Partial<Pick<User, 'followersCount'>>>(
  user: U,
): U {
  const shadow = useShadow<UserShadow>(shadowKeys.user(user.id));
  return useMemo(() => applyUserShadow(user, shadow), [user, shadow]);
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
  failure: (on: boolean) => string;
}

/**
 * One on/off action of the viewer's on something (like, follow; later repost, bookmark, block):
 * shown at once through the overlay, each answer written to the cache by its event function, the
 * overlay dropped when the last call of the burst has settled, so a quick like-unlike never
 * flickers and a failure puts the server's state back.
 */
export function useToggle<Shadow, Answer>({
  shadowKey,
  shadow,
  send,
  settled,
  failure,
}: ToggleOptions<Shadow, Answer>) {
  const queryClient = useQueryClient();
  const mutationKey = ['toggle', ...shadowKey];
  const mutation = useMutation({
    mutationKey,
    mutationFn: send,
    onMutate: (on: boolean) => {
      queryClient.setQueryData<Shadow>(shadowKey, shadow(on));
    },
    onSuccess: settled,
    onError: (_error, on) => notifyError(failure(on)),
    onSettled: () => {
      // This call still counts as under way here: 1 means it was the last.
      if (queryClient.isMutating({ mutationKey }) <= 1) queryClient.setQueryData<Shadow | object>(shadowKey, {});
    },
  });
  return (on: boolean) => mutation.mutate(on);
}
