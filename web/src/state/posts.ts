import type { Page, PollCounts, Post } from '@pipit/contract';
import {
  type InfiniteData,
  type QueryClient,
  type QueryKey,
  queryOptions,
  skipToken,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';
import { type FeedKind, liveKeys, postHistoryKeys, postKeys, type TimelineKind, userKeys, viewerKeys } from './keys.ts';
import { onePage, pagedQuery } from './paged.ts';

/**
 * Posts: where they are cached, how they are asked for, and what happens to the cache when
 * something happens to a post. The event functions (`postCreated`, `postDeleted`, `postChanged`)
 * are what a mutation calls on success, and what a pushed live event will call.
 */

export type PostPages = InfiniteData<Page<Post>>;

/** GET /api/timeline/{following|everyone}: newest first. */
export const timelineQueryOptions = (kind: TimelineKind) => ({
  ...pagedQuery(postKeys.timeline(kind), (cursor) =>
    call(kind === 'following' ? 'timelineFollowing' : 'timelineEveryone', { query: { cursor } }),
  ),
  // Refetching every loaded page on focus would move the list under the reader's eyes.
  refetchOnWindowFocus: false,
  staleTime: 60_000,
});

/** GET /api/users/:id/posts: newest first. */
export const userPostsQueryOptions = (userId: string) =>
  pagedQuery(postKeys.byUser(userId), (cursor) => call('userPosts', { params: { id: userId }, query: { cursor } }));

/** GET /api/posts/:id/replies: oldest first. */
export const repliesQueryOptions = (id: string) =>
  pagedQuery(postKeys.replies(id), (cursor) => call('replies', { params: { id }, query: { cursor } }));

/**
 * GET /api/posts/:id/ancestors: the conversation above a post, root first. Kept in the shape of
 * every other list (one page, no cursor), so a like or a delete anywhere reaches these posts too.
 */
export const ancestorsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: postKeys.ancestors(id),
    queryFn: async (): Promise<PostPages> => onePage((await call('ancestors', { params: { id } })).items),
  });

/** GET /api/bookmarks: the viewer's, newest bookmark first. */
export const bookmarksQueryOptions = () =>
  pagedQuery(postKeys.bookmarks(), (cursor) => call('bookmarks', { query: { cursor } }));

export const useBookmarks = () => useInfiniteQuery(bookmarksQueryOptions());

/** GET /api/search/posts: posts matching words, newest first. */
export const searchPostsQueryOptions = (q: string) =>
  pagedQuery(postKeys.search(q), (cursor) => call('searchPosts', { query: { q, cursor } }));

export const useSearchPosts = (q: string) => useInfiniteQuery(searchPostsQueryOptions(q));

/** GET /api/hashtags/:tag/posts: newest first; `tag` in its stored form (contract `hashtagOf`). */
export const hashtagPostsQueryOptions = (tag: string) =>
  pagedQuery(postKeys.hashtag(tag), (cursor) => call('hashtagPosts', { params: { tag }, query: { cursor } }));

export const useHashtagPosts = (tag: string) => useInfiniteQuery(hashtagPostsQueryOptions(tag));

export const postQueryOptions = (id: string) =>
  queryOptions({ queryKey: postKeys.detail(id), queryFn: () => call('post', { params: { id } }) });

export const useTimeline = (kind: TimelineKind, { enabled = true } = {}) =>
  useInfiniteQuery({ ...timelineQueryOptions(kind), enabled });
export const useUserPosts = (userId: string) => useInfiniteQuery(userPostsQueryOptions(userId));
export const useReplies = (id: string) => useInfiniteQuery(repliesQueryOptions(id));
/** Asked only for a reply: a post without a parent has nothing above it. */
export const useAncestors = (id: string) => useQuery(ancestorsQueryOptions(id));

/** GET /api/posts/:id/history: every version of a post, oldest first. */
export const postHistoryQueryOptions = (id: string) =>
  queryOptions({ queryKey: postHistoryKeys.detail(id), queryFn: () => call('postHistory', { params: { id } }) });
export const usePostHistory = (id: string) => useQuery(postHistoryQueryOptions(id));

/** A post opened from a list shows at once from that list, then refreshes if the list was old. */
export function usePost(id: string | null | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    ...postQueryOptions(id ?? ''),
    enabled: Boolean(id),
    initialData: () => (id ? findCachedPost(queryClient, id)?.post : undefined),
    initialDataUpdatedAt: () => (id ? findCachedPost(queryClient, id)?.updatedAt : undefined),
  });
}

/** Counts move by one at a time and never below zero. */
export const bump = (count: number, by: number) => Math.max(0, count + by);

type CachedPosts = Post | PostPages | undefined;
const isPages = (data: Post | PostPages): data is PostPages => 'pages' in data;

/** Applies `update` to the post wherever it is cached: its own page and every list. */
function updatePostEverywhere(queryClient: QueryClient, id: string, update: (post: Post) => Post) {
  queryClient.setQueriesData<CachedPosts>({ queryKey: postKeys.all }, (data) => {
    if (!data) return data;
    if (!isPages(data)) return data.id === id ? update(data) : data;
    let changed = false;
    const pages = data.pages.map((page) => {
      if (!page.items.some((post) => post.id === id)) return page;
      changed = true;
      return { ...page, items: page.items.map((post) => (post.id === id ? update(post) : post)) };
    });
    return changed ? { ...data, pages } : data;
  });
}

/** Puts a new post at the top of a loaded newest-first list (a cursor list stays consistent). */
function prependPost(queryClient: QueryClient, key: QueryKey, post: Post) {
  queryClient.setQueryData<PostPages>(key, (data) => {
    const [first, ...rest] = data?.pages ?? [];
    if (!data || !first || first.items.some((p) => p.id === post.id)) return data;
    return { ...data, pages: [{ ...first, items: [post, ...first.items] }, ...rest] };
  });
}

/** Adds a reply at the end of an oldest-first list once its last page is loaded. */
function appendPost(queryClient: QueryClient, key: QueryKey, post: Post) {
  queryClient.setQueryData<PostPages>(key, (data) => {
    const last = data?.pages.at(-1);
    if (!data || !last || last.nextCursor !== null || last.items.some((p) => p.id === post.id)) return data;
    return { ...data, pages: [...data.pages.slice(0, -1), { ...last, items: [...last.items, post] }] };
  });
}

/**
 * The post as a list on screen already has it, with when that list was fetched: its page can
 * show at once, and refetch in the background if that is old.
 */
function findCachedPost(queryClient: QueryClient, id: string): { post: Post; updatedAt: number } | undefined {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: postKeys.lists() })) {
    const data = query.state.data as PostPages | undefined;
    for (const page of data?.pages ?? []) {
      const post = page.items.find((p) => p.id === id);
      if (post) return { post, updatedAt: query.state.dataUpdatedAt };
    }
  }
  return undefined;
}

/** The author's counts (posts) live on their profile and, for the viewer, on their own profile. */
/** A post by its id, its parent and its author's id: what an event about it needs to know. */
export type PostRef = Pick<Post, 'id' | 'parentId'> & { author: Pick<Post['author'], 'id'> };

function authorChanged(queryClient: QueryClient, post: Pick<PostRef, 'author'>) {
  queryClient.invalidateQueries({ queryKey: viewerKeys.me() });
  queryClient.invalidateQueries({ queryKey: userKeys.detail(post.author.id) });
}

/**
 * A post was written: it goes straight into the lists already on screen (top of the timelines and
 * the author's posts; end of its parent's replies), so nothing refetches or jumps.
 */
export function postCreated(queryClient: QueryClient, post: Post) {
  queryClient.setQueryData(postKeys.detail(post.id), post);
  if (post.parentId) {
    appendPost(queryClient, postKeys.replies(post.parentId), post);
    updatePostEverywhere(queryClient, post.parentId, (parent) => ({
      ...parent,
      replyCount: bump(parent.replyCount, 1),
    }));
    queryClient.invalidateQueries({ queryKey: postKeys.byUser(post.author.id) });
  } else {
    prependPost(queryClient, postKeys.timeline('following'), post);
    prependPost(queryClient, postKeys.timeline('everyone'), post);
    prependPost(queryClient, postKeys.byUser(post.author.id), post);
  }
  authorChanged(queryClient, post);
}

/** A post was deleted: out of every list, its page forgotten; a reply also leaves its parent's count. */
export function postDeleted(queryClient: QueryClient, post: PostRef) {
  queryClient.removeQueries({ queryKey: postKeys.detail(post.id), exact: true });
  queryClient.setQueriesData<CachedPosts>({ queryKey: postKeys.lists() }, (data) => {
    if (!data || !isPages(data)) return data;
    if (!data.pages.some((page) => page.items.some((p) => p.id === post.id))) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({ ...page, items: page.items.filter((p) => p.id !== post.id) })),
    };
  });
  if (post.parentId) {
    updatePostEverywhere(queryClient, post.parentId, (parent) => ({
      ...parent,
      replyCount: bump(parent.replyCount, -1),
    }));
  }
  authorChanged(queryClient, post);
}

/** The server's newest word on a post (a like's answer): it replaces the post wherever it is cached. */
export function postChanged(queryClient: QueryClient, post: Post) {
  // A timeline entry that is a repost keeps saying who reposted it: the answer is the post alone.
  updatePostEverywhere(queryClient, post.id, (shown) => ({ ...post, repostedBy: shown.repostedBy }));
}

/** What an edit changes of a post: its words, warning, pictures and when it was edited. */
type Edited = Pick<Post, 'text' | 'spoilerText' | 'sensitive' | 'media' | 'editedAt'>;
const editedPart = (post: Post): Edited => ({
  text: post.text,
  spoilerText: post.spoilerText,
  sensitive: post.sensitive,
  media: post.media,
  editedAt: post.editedAt,
});

/**
 * The poll an edit leaves: the one shown (the reader's own votes and counts) when it asks the same
 * (same options, same kind of choice) with its new end and hidden-or-not; else the edited post's.
 */
function editedPoll(shown: Post['poll'], edited: Post['poll']): Post['poll'] {
  if (!shown || !edited) return edited;
  const same =
    shown.multiple === edited.multiple &&
    shown.options.length === edited.options.length &&
    shown.options.every((o, i) => o.title === edited.options[i]?.title);
  return same
    ? { ...shown, expiresAt: edited.expiresAt, expired: edited.expired, hideTotals: edited.hideTotals }
    : edited;
}

/**
 * A post was edited (the author's answer, or `post.updated` pushed live): its new words and pictures
 * wherever it is cached — itself, and quotes that embed it — keeping each copy's own facts (likes,
 * "reposted by"); its link card and poll as the edit left them (editedPoll); its history is asked
 * again when next opened.
 */
export function postEdited(queryClient: QueryClient, post: Post) {
  const part = editedPart(post);
  let pollChanged = false;
  updatePostEverywhere(queryClient, post.id, (shown) => {
    const poll = editedPoll(shown.poll, post.poll);
    if (poll === post.poll && shown.poll !== post.poll) pollChanged = true;
    return { ...shown, ...part, card: post.card, poll };
  });
  queryClient.setQueriesData<CachedPosts>({ queryKey: postKeys.all }, (data) => {
    if (!data) return data;
    const embed = (p: Post): Post =>
      p.quote?.state === 'shown' && p.quote.post.id === post.id
        ? { ...p, quote: { state: 'shown', post: { ...p.quote.post, ...part } } }
        : p;
    if (!isPages(data)) return embed(data);
    let changed = false;
    const pages = data.pages.map((page) => {
      if (!page.items.some((p) => p.quote?.state === 'shown' && p.quote.post.id === post.id)) return page;
      changed = true;
      return { ...page, items: page.items.map(embed) };
    });
    return changed ? { ...data, pages } : data;
  });
  queryClient.setQueriesData<Post[]>({ queryKey: liveKeys.all }, (pending) =>
    pending?.map((p) =>
      p.id === post.id ? { ...p, ...part, card: post.card, poll: editedPoll(p.poll, post.poll) } : p,
    ),
  );
  queryClient.invalidateQueries({ queryKey: postHistoryKeys.detail(post.id) });
  // Another poll (its votes reset): its page is read again for this reader's own view of it (counts
  // an author sees when hidden from others).
  if (pollChanged) queryClient.invalidateQueries({ queryKey: postKeys.detail(post.id) });
}

/**
 * A poll's new counts from the live stream (a vote, its end, or an edit that reset it): merged into
 * the post wherever it is shown. The reader's own choices stay theirs, unless the votes were reset.
 */
export function pollCountsChanged(
  queryClient: QueryClient,
  postId: string,
  change: { counts: PollCounts; ended: boolean; reset: boolean },
) {
  updatePostEverywhere(queryClient, postId, (post) => {
    const { poll } = post;
    if (!poll || poll.options.length !== change.counts.options.length) return post;
    return {
      ...post,
      poll: {
        ...poll,
        votersCount: change.counts.votersCount,
        votesCount: change.counts.votesCount,
        options: poll.options.map((option, i) => ({ ...option, votesCount: change.counts.options[i] ?? null })),
        expired: poll.expired || change.ended,
        ...(change.reset ? { voted: false, ownVotes: [] } : {}),
      },
    };
  });
  // An edit may have changed the options themselves: read the post again.
  if (change.reset) queryClient.invalidateQueries({ queryKey: postKeys.detail(postId) });
}

/**
 * The viewer kept or took out a post (the server's answer): it changes wherever it is shown, and the
 * Bookmarks list is fetched again (a post taken out there stays until then, so an undo is one click).
 */
export function bookmarkChanged(queryClient: QueryClient, post: Post) {
  postChanged(queryClient, post);
  queryClient.invalidateQueries({ queryKey: postKeys.bookmarks(), refetchType: 'none' });
}

/** Someone's name or picture changed: every post carries them, so every list is fetched again. */
export function authorsChanged(queryClient: QueryClient) {
  queryClient.invalidateQueries({ queryKey: postKeys.all });
}

const inList = (data: PostPages | undefined, id: string) =>
  Boolean(data?.pages.some((page) => page.items.some((p) => p.id === id)));

/** The cached list of a live feed: a home timeline, or a list's. */
export const feedKey = (kind: FeedKind) =>
  kind.startsWith('list:')
    ? postKeys.listTimeline(kind.slice('list:'.length))
    : postKeys.timeline(kind as TimelineKind);

/**
 * Someone else's post, pushed live. It never moves what the reader is looking at: for the timelines
 * (and the viewer's lists) it belongs to it waits in `liveKeys.pending` until "Show new posts"; a
 * reply joins the end of its parent's loaded replies and counts there.
 */
export function postArrived(
  queryClient: QueryClient,
  post: Post,
  timelines: readonly TimelineKind[],
  lists: readonly string[] = [],
) {
  const feeds: FeedKind[] = [...timelines, ...lists.map((id) => `list:${id}` as const)];
  for (const kind of feeds) {
    if (!queryClient.getQueryData(feedKey(kind))) continue; // Not loaded: its first fetch will have it.
    if (inList(queryClient.getQueryData<PostPages>(feedKey(kind)), post.id)) continue;
    queryClient.setQueryData<Post[]>(liveKeys.pending(kind), (pending = []) =>
      pending.some((p) => p.id === post.id) ? pending : [post, ...pending],
    );
  }
  // Known already (this tab wrote it: postCreated cached it): its reply is counted.
  if (!post.parentId || queryClient.getQueryData(postKeys.detail(post.id))) return;
  queryClient.setQueryData(postKeys.detail(post.id), post);
  appendPost(queryClient, postKeys.replies(post.parentId), post);
  updatePostEverywhere(queryClient, post.parentId, (parent) => ({ ...parent, replyCount: bump(parent.replyCount, 1) }));
}

/**
 * A post's link card arrived (pushed live, after the post): it shows wherever the post is — its page,
 * the lists, a repost of it, the posts waiting above a timeline. Only the card changes: the rest of the
 * cached post stays the reader's own (their like, bookmark, repost).
 */
export function postCardArrived(queryClient: QueryClient, id: string, card: Post['card']) {
  updatePostEverywhere(queryClient, id, (post) => ({ ...post, card }));
  queryClient.setQueriesData<Post[]>({ queryKey: liveKeys.all }, (pending) =>
    pending?.some((p) => p.id === id) ? pending.map((p) => (p.id === id ? { ...p, card } : p)) : pending,
  );
}

/** A post gone live: out of the lists (postDeleted) and out of what is waiting to be shown. */
export function postRemoved(queryClient: QueryClient, post: PostRef) {
  postDeleted(queryClient, post);
  queryClient.setQueriesData<Post[]>({ queryKey: liveKeys.all }, (pending) => pending?.filter((p) => p.id !== post.id));
}

/** New posts waiting above a timeline. */
export const usePendingPosts = (kind: FeedKind) =>
  useQuery<Post[]>({ queryKey: liveKeys.pending(kind), queryFn: skipToken, staleTime: Number.POSITIVE_INFINITY })
    .data ?? [];

/** The reader asked to see them: they go on top of the timeline, newest first. */
export function showPendingPosts(queryClient: QueryClient, kind: FeedKind) {
  const pending = queryClient.getQueryData<Post[]>(liveKeys.pending(kind)) ?? [];
  for (const post of [...pending].reverse()) prependPost(queryClient, feedKey(kind), post);
  queryClient.setQueryData<Post[]>(liveKeys.pending(kind), []);
}

/** The stream could not resume: what is cached may have missed events, so the lists are asked again. */
export function postsMissed(queryClient: QueryClient) {
  queryClient.setQueriesData<Post[]>({ queryKey: liveKeys.all }, () => []);
  queryClient.invalidateQueries({ queryKey: postKeys.all });
}
