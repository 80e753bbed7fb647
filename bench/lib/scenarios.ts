// The load scenarios: what a visitor or a signed-in member asks the API for.
import { api } from '@pipit/contract';
import type autocannon from 'autocannon';
import type { Manifest } from '../seed.ts';
import { bearerToken, memberHeaders } from './auth.ts';
import type { InjectRequest } from './floors.ts';

export interface Scenario {
  name: string;
  title: string;
  /** True when the scenario changes data (its floor is the raw INSERT, not a replay). */
  write: boolean;
  /** The requests connection `client` sends in a loop. */
  requests(client: number): autocannon.Request[];
  /** One representative request, to capture the statements it runs (reads and create post). */
  sample: InjectRequest | null;
  /**
   * SQL the runner sends before the load (PostgreSQL only: with PGlite the server holds the database,
   * and the scenario is skipped); what it adds is removed with the write scenarios' rows.
   */
  prepare?: string;
  /**
   * SQL run once before the floors and the load (PostgreSQL only; idempotent), for what the scenario
   * reads and the seed does not hold (a list); kept between runs.
   */
  setup?: string;
}

/** How many posts the burst scenarios write just before they search. */
export const BURST_POSTS = 20_000;

/**
 * A burst of posts without the common word, newest of all, by the members in turn, with no vacuum after:
 * what a busy minute leaves in front of a search's first page (and in the GIN index's pending list).
 */
function burstSql(members: Manifest['members']): string {
  const ids = members.map((m) => m.userId).join(',');
  return `INSERT INTO posts (author_id, text, created_at)
    SELECT (ARRAY[${ids}])[1 + g % ${members.length}], 'Burst post ' || g || ': nothing to see here #pipit', clock_timestamp()
    FROM generate_series(1, ${BURST_POSTS}) AS g`;
}

/** The bench lists' ids (one per member, above any id the app draws) and their size. */
export const LIST_ID0 = 900_000_000;
export const LIST_SIZE = 50;

/** One list per member, of the first LIST_SIZE people they follow (kept between runs: the same every time). */
function listsSql(members: Manifest['members']): string {
  const rows = members.map((m, i) => `(${LIST_ID0 + i}, ${m.userId})`).join(', ');
  return `INSERT INTO lists (id, owner_id, title) OVERRIDING SYSTEM VALUE
      SELECT v.id, v.owner, 'Bench list' FROM (VALUES ${rows}) AS v(id, owner) ON CONFLICT DO NOTHING;
    INSERT INTO list_members (list_id, owner_id, user_id)
      SELECT v.id, f.follower_id, f.followee_id FROM (VALUES ${rows}) AS v(id, owner)
      CROSS JOIN LATERAL (SELECT follower_id, followee_id FROM follows WHERE follower_id = v.owner
        ORDER BY followee_id LIMIT ${LIST_SIZE}) f
      ON CONFLICT DO NOTHING`;
}

/** The second half of the members approve followers; no request or follow between the pairs is left over. */
function lockedSql(members: Manifest['members']): string {
  const half = Math.floor(members.length / 2);
  const targets = members.slice(half).map((m) => m.userId);
  return `UPDATE users SET locked = true WHERE id IN (${targets.join(',')});
    DELETE FROM follow_requests WHERE target_id IN (${targets.join(',')})`;
}

export interface ScenarioContext {
  manifest: Manifest;
  authSecret: string;
  /** A Following cursor about half a year back. */
  deepCursor: string;
}

/**
 * Every client asks for compressed answers, as real ones do: the web's as Chromium does, the Mastodon
 * app's as OkHttp does (Tusky and most Android apps; iOS's URLSession adds br).
 */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
export const APP_ACCEPT_ENCODING = 'gzip';

export function buildScenarios({ manifest, authSecret, deepCursor }: ScenarioContext): Scenario[] {
  const seed = manifest.spec.seed;
  const members = manifest.members;
  const headersOf = (client: number) => {
    const member = members[client % members.length];
    if (!member) throw new Error('The manifest has no members: run npm run bench:seed');
    return { ...memberHeaders(member.token, authSecret, seed), 'accept-encoding': BROWSER_ACCEPT_ENCODING };
  };
  const visitorHeaders = { 'accept-encoding': BROWSER_ACCEPT_ENCODING };
  const t = manifest.targets;
  const read = (name: string, title: string, path: string, asMember: boolean): Scenario => ({
    name,
    title,
    write: false,
    requests: (client) => [{ method: 'GET', path, headers: asMember ? headersOf(client) : visitorHeaders }],
    sample: { method: 'GET', url: path, headers: asMember ? headersOf(0) : visitorHeaders },
  });

  const likeUnlike: Scenario = {
    name: 'like-unlike',
    title: 'Like / unlike (PUT, DELETE)',
    write: true,
    requests: (client) => {
      // Each connection is its own member and walks its own offset in the post list: no two
      // connections toggle the same like at once.
      const headers = headersOf(client);
      const ids = t.likePostIds;
      let k = client * 37;
      const path = () => api.like(String(ids[k % ids.length]));
      return [
        {
          method: 'PUT',
          headers,
          setupRequest: (request) => ({ ...request, path: path() }),
        },
        {
          method: 'DELETE',
          headers,
          setupRequest: (request) => {
            const next = { ...request, path: path() };
            k++;
            return next;
          },
        },
      ];
    },
    sample: null,
  };

  const createPost: Scenario = {
    name: 'create-post',
    title: 'Create a post',
    write: true,
    requests: (client) => {
      const headers = { ...headersOf(client), 'content-type': 'application/json' };
      let k = 0;
      return [
        {
          method: 'POST',
          path: api.posts,
          headers,
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ text: `Benchmark post ${client}-${k++}: nothing to see here #pipit` }),
          }),
        },
      ];
    },
    sample: {
      method: 'POST',
      url: api.posts,
      headers: { ...headersOf(0), 'content-type': 'application/json' },
      payload: { text: 'Benchmark post sample: nothing to see here #pipit' },
    },
  };

  // Lists (issue 27): each member gets one list of LIST_SIZE of the people they follow (ids LIST_ID0 + i).
  const listOf = (client: number) => String(LIST_ID0 + (client % members.length));
  const listFirstPage: Scenario = {
    name: 'list-first-page',
    title: `A list's timeline, first page (${LIST_SIZE} people followed)`,
    write: false,
    requests: (client) => [{ method: 'GET', path: api.listPosts(listOf(client)), headers: headersOf(client) }],
    sample: { method: 'GET', url: api.listPosts(listOf(0)), headers: headersOf(0) },
    setup: listsSql(members),
  };

  // A locked account's approve path (issue 27): connection c's requester unfollows its target (a locked
  // member), asks to follow again, the target approves; the three calls in a loop, pairs apart.
  const half = Math.floor(members.length / 2);
  const approveFollow: Scenario = {
    name: 'approve-follow',
    title: 'Locked account: unfollow, request, approve (3 calls)',
    write: true,
    requests: (client) => {
      const requester = client % half;
      const target = half + (client % half);
      const asRequester = headersOf(requester);
      const asTarget = { ...headersOf(target), 'content-type': 'application/json' };
      const requesterId = String(members[requester]?.userId);
      const targetId = String(members[target]?.userId);
      // The unfollow first: a cycle cut short (the warm-up's end) leaves the next one a clean start.
      return [
        { method: 'DELETE', path: api.follow(targetId), headers: asRequester },
        { method: 'PUT', path: api.follow(targetId), headers: asRequester },
        { method: 'POST', path: api.approveFollowRequest(requesterId), headers: asTarget, body: '{}' },
      ];
    },
    sample: null,
    prepare: lockedSql(members),
  };

  const profile = String(t.profileUserId);
  const thread = String(t.threadPostId);
  return [
    read('everyone', 'Everyone timeline, visitor', api.timelineEveryone, false),
    read('following', `Following, first page (member follows ${members[0]?.following})`, api.timelineFollowing, true),
    {
      // The same page for a Mastodon app: a bearer token, Mastodon's statuses.
      name: 'mastodon-home',
      title: 'Mastodon app: home timeline (bearer token)',
      write: false,
      requests: (client) => [
        {
          method: 'GET',
          path: '/api/v1/timelines/home',
          headers: {
            authorization: `Bearer ${bearerToken(seed, client % members.length)}`,
            'accept-encoding': APP_ACCEPT_ENCODING,
          },
        },
      ],
      sample: {
        method: 'GET',
        url: '/api/v1/timelines/home',
        headers: { authorization: `Bearer ${bearerToken(seed, 0)}`, 'accept-encoding': APP_ACCEPT_ENCODING },
      },
    },
    read(
      'following-deep',
      'Following, a page ~6 months back',
      `${api.timelineFollowing}?cursor=${encodeURIComponent(deepCursor)}`,
      true,
    ),
    read('profile', `Profile (${t.profileFollowers} followers)`, api.user(profile), true),
    read('profile-posts', 'Profile posts', api.userPosts(profile), true),
    read('post', 'Post page: the post', api.post(thread), true),
    read('replies', `Post page: replies (${t.threadReplies})`, api.replies(thread), true),
    likeUnlike,
    createPost,
    read('current', 'GET /api/current', api.current, true),
    read(
      'search-rare',
      `Search posts, a rare word (${t.searchRareCount} posts)`,
      `${api.searchPosts}?q=${encodeURIComponent(t.searchRare)}`,
      true,
    ),
    read(
      'search-common',
      `Search posts, a common word ("${t.searchCommon}")`,
      `${api.searchPosts}?q=${encodeURIComponent(t.searchCommon)}`,
      true,
    ),
    read('hashtag', `Hashtag page (#${t.hashtag})`, api.hashtagPosts(t.hashtag), true),
    read(
      'people-typeahead',
      `People typeahead ("${t.typeahead}")`,
      `${api.searchPeople}?q=${encodeURIComponent(t.typeahead)}&limit=5`,
      true,
    ),
    {
      ...read(
        'search-common-burst',
        `Search posts, "${t.searchCommon}", right after ${BURST_POSTS.toLocaleString('en')} new posts without it`,
        `${api.searchPosts}?q=${encodeURIComponent(t.searchCommon)}`,
        true,
      ),
      prepare: burstSql(members),
    },
    listFirstPage,
    approveFollow,
    // The same burst still in front (no second one): a rare word's page and the typeahead after it.
    read(
      'search-rare-burst',
      `Search posts, a rare word, after the burst`,
      `${api.searchPosts}?q=${encodeURIComponent(t.searchRare)}`,
      true,
    ),
  ];
}
