import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { makePage, makePost, makeUserSummary } from '../test/fixtures.ts';
import { postKeys, viewerKeys } from './keys.ts';
import { type PostPages, postChanged, postCreated, postDeleted } from './posts.ts';

const pages = (...lists: ReturnType<typeof makePost>[][]): PostPages => ({
  pages: lists.map((items, i) => makePage(items, i < lists.length - 1 ? `c${i}` : null)),
  pageParams: lists.map((_, i) => (i === 0 ? null : `c${i - 1}`)),
});
const ids = (data: PostPages | undefined) => data?.pages.flatMap((p) => p.items.map((post) => post.id));

function cacheWith(entries: [readonly unknown[], unknown][]) {
  const queryClient = new QueryClient();
  for (const [key, data] of entries) queryClient.setQueryData(key, data);
  return queryClient;
}

const bob = makeUserSummary({ id: '2', username: 'bob' });
const root = makePost({ id: '1', author: bob, replyCount: 1 });
const older = makePost({ id: '0', author: bob });

describe('post events', () => {
  it('postCreated puts a post on top of the loaded newest-first lists, once', () => {
    const queryClient = cacheWith([
      [postKeys.timeline('everyone'), pages([root], [older])],
      [postKeys.byUser(bob.id), pages([root])],
    ]);
    const post = makePost({ id: '5', author: bob });
    postCreated(queryClient, post);
    postCreated(queryClient, post);
    expect(ids(queryClient.getQueryData(postKeys.timeline('everyone')))).toEqual(['5', '1', '0']);
    expect(ids(queryClient.getQueryData(postKeys.byUser(bob.id)))).toEqual(['5', '1']);
    expect(queryClient.getQueryData(postKeys.detail('5'))).toEqual(post);
    // A list nobody loaded is left for its first fetch.
    expect(queryClient.getQueryData(postKeys.timeline('following'))).toBeUndefined();
  });

  it('postCreated adds a reply at the end of its parent’s loaded replies and counts it everywhere', () => {
    const queryClient = cacheWith([
      [postKeys.timeline('everyone'), pages([root])],
      [postKeys.replies(root.id), pages([])],
      [viewerKeys.meOf('alice@example.com'), { id: '9' }],
    ]);
    const reply = makePost({ id: '6', parent: root });
    postCreated(queryClient, reply);
    expect(ids(queryClient.getQueryData(postKeys.replies(root.id)))).toEqual(['6']);
    expect(queryClient.getQueryData<PostPages>(postKeys.timeline('everyone'))?.pages[0]?.items[0]?.replyCount).toBe(2);
    expect(ids(queryClient.getQueryData(postKeys.timeline('everyone')))).toEqual(['1']);
    // The author's counts are asked again.
    expect(queryClient.getQueryState(viewerKeys.meOf('alice@example.com'))?.isInvalidated).toBe(true);
  });

  it('postDeleted takes the post out of every list and its parent’s count down, never below zero', () => {
    const reply = makePost({ id: '6', parent: { ...root, replyCount: 0 } });
    const queryClient = cacheWith([
      [postKeys.timeline('everyone'), pages([reply, { ...root, replyCount: 0 }])],
      [postKeys.replies(root.id), pages([reply])],
      [postKeys.detail(reply.id), reply],
    ]);
    postDeleted(queryClient, reply);
    expect(ids(queryClient.getQueryData(postKeys.replies(root.id)))).toEqual([]);
    const [left] = queryClient.getQueryData<PostPages>(postKeys.timeline('everyone'))?.pages[0]?.items ?? [];
    expect(left).toMatchObject({ id: '1', replyCount: 0 });
    expect(queryClient.getQueryData(postKeys.detail(reply.id))).toBeUndefined();
  });

  it('postChanged replaces the post wherever it is cached, and nothing else', () => {
    const queryClient = cacheWith([
      [postKeys.timeline('everyone'), pages([root, older])],
      [postKeys.detail(root.id), root],
    ]);
    const liked = { ...root, likedByMe: true, likeCount: 3 };
    postChanged(queryClient, liked);
    expect(queryClient.getQueryData(postKeys.detail(root.id))).toEqual(liked);
    const items = queryClient.getQueryData<PostPages>(postKeys.timeline('everyone'))?.pages[0]?.items;
    expect(items?.[0]).toEqual(liked);
    expect(items?.[1]).toBe(older);
  });
});
