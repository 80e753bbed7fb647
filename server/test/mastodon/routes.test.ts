/**
 * The Mastodon route table (src/modules/mastodon/mastodon.endpoints.ts) is the Mastodon API: every
 * route registered under /api/v1 and /api/v2 is in it and every entry is registered. Each entry is
 * called here — with a token that grants it, and without one — and every answer, success or error,
 * is validated against the OpenAPI description (mastodonCall). The table of calls is typed by the
 * endpoint names, so an entry added without a call here does not compile.
 */
import { describe, expect, it } from 'vitest';
import { type MastodonEndpointName, mastodonEndpoints } from '../../src/modules/mastodon/mastodon.endpoints.ts';
import { inject, useTestApp } from '../helpers/app.ts';
import { multipart } from '../helpers/multipart.ts';
import { photo } from '../media/fixtures.ts';
import { listRoutes, seedWorld, TEST_PUSH_KEYS } from '../security/support.ts';
import { mastodonCall } from './openapi.ts';

type World = Awaited<ReturnType<typeof seedWorld>>;
interface Call {
  /** The path with its parameters filled in (and a query when it needs one). */
  url: (
    w: World,
    ids: { media: string; notification: string; group: string; list: string; conversation: string; scheduled: string },
  ) => string;
  body?: object | ((w: World) => object);
  upload?: boolean;
  status?: number;
}

const bob = (w: World) => w.ids.bob;
const CALLS: Record<MastodonEndpointName, Call> = {
  instanceV2: { url: () => '/api/v2/instance' },
  instanceV1: { url: () => '/api/v1/instance' },
  instanceRules: { url: () => '/api/v1/instance/rules' },
  instancePeers: { url: () => '/api/v1/instance/peers' },
  instanceDomainBlocks: { url: () => '/api/v1/instance/domain_blocks' },
  instanceActivity: { url: () => '/api/v1/instance/activity' },
  customEmojis: { url: () => '/api/v1/custom_emojis' },
  verifyCredentials: { url: () => '/api/v1/accounts/verify_credentials' },
  updateCredentials: { url: () => '/api/v1/accounts/update_credentials', body: { note: 'a new bio' } },
  account: { url: (w) => `/api/v1/accounts/${bob(w)}` },
  lookup: { url: () => '/api/v1/accounts/lookup?acct=bob' },
  accountStatuses: { url: (w) => `/api/v1/accounts/${bob(w)}/statuses` },
  accountFollowers: { url: (w) => `/api/v1/accounts/${w.ids.alice}/followers` },
  accountFollowing: { url: (w) => `/api/v1/accounts/${bob(w)}/following` },
  accountFeaturedTags: { url: (w) => `/api/v1/accounts/${bob(w)}/featured_tags` },
  accountSearch: { url: () => '/api/v1/accounts/search?q=bo' },
  relationships: { url: (w) => `/api/v1/accounts/relationships?id[]=${bob(w)}&id[]=${w.ids.carol}` },
  familiarFollowers: { url: (w) => `/api/v1/accounts/familiar_followers?id[]=${bob(w)}` },
  follow: { url: (w) => `/api/v1/accounts/${w.ids.carol}/follow` },
  // No request waits on alice here: authorize and reject answer 404 (their success: follow-requests.test.ts).
  followRequests: { url: () => '/api/v1/follow_requests' },
  authorizeFollowRequest: { url: (w) => `/api/v1/follow_requests/${bob(w)}/authorize`, status: 404 },
  rejectFollowRequest: { url: (w) => `/api/v1/follow_requests/${bob(w)}/reject`, status: 404 },
  unfollow: { url: (w) => `/api/v1/accounts/${w.ids.carol}/unfollow` },
  block: { url: (w) => `/api/v1/accounts/${w.ids.carol}/block` },
  unblock: { url: (w) => `/api/v1/accounts/${w.ids.carol}/unblock` },
  mute: { url: (w) => `/api/v1/accounts/${w.ids.carol}/mute`, body: { duration: 3600 } },
  unmute: { url: (w) => `/api/v1/accounts/${w.ids.carol}/unmute` },
  blocks: { url: () => '/api/v1/blocks' },
  mutes: { url: () => '/api/v1/mutes' },
  preferences: { url: () => '/api/v1/preferences' },
  // The world's posts have no poll: 404 (their success answers: test/polls/mastodon-polls.test.ts).
  poll: { url: (w) => `/api/v1/polls/${w.bobPost}`, status: 404 },
  votePoll: { url: (w) => `/api/v1/polls/${w.bobPost}/votes`, body: { choices: [0] }, status: 404 },
  createReport: {
    url: () => '/api/v1/reports',
    body: (w) => ({ account_id: bob(w), status_ids: [w.bobPost], comment: 'from the route table', category: 'spam' }),
  },
  createStatus: { url: () => '/api/v1/statuses', body: { status: 'from the route table' } },
  status: { url: (w) => `/api/v1/statuses/${w.bobPost}` },
  deleteStatus: { url: (w) => `/api/v1/statuses/${w.alicePost}` },
  editStatus: {
    url: (w) => `/api/v1/statuses/${w.alicePost}`,
    body: { status: 'edited from the route table', spoiler_text: 'a warning', media_ids: [] },
  },
  statusHistory: { url: (w) => `/api/v1/statuses/${w.alicePost}/history` },
  statusSource: { url: (w) => `/api/v1/statuses/${w.alicePost}/source` },
  context: { url: (w) => `/api/v1/statuses/${w.bobPost}/context` },
  favouritedBy: { url: (w) => `/api/v1/statuses/${w.bobPost}/favourited_by` },
  rebloggedBy: { url: (w) => `/api/v1/statuses/${w.bobPost}/reblogged_by` },
  favourite: { url: (w) => `/api/v1/statuses/${w.bobPost}/favourite` },
  unfavourite: { url: (w) => `/api/v1/statuses/${w.bobPost}/unfavourite` },
  reblog: { url: (w) => `/api/v1/statuses/${w.bobPost}/reblog` },
  unreblog: { url: (w) => `/api/v1/statuses/${w.bobPost}/unreblog` },
  bookmark: { url: (w) => `/api/v1/statuses/${w.bobPost}/bookmark` },
  unbookmark: { url: (w) => `/api/v1/statuses/${w.bobPost}/unbookmark` },
  homeTimeline: { url: () => '/api/v1/timelines/home?limit=5' },
  publicTimeline: { url: () => '/api/v1/timelines/public' },
  tagTimeline: { url: () => '/api/v1/timelines/tag/wrens' },
  bookmarks: { url: () => '/api/v1/bookmarks' },
  favourites: { url: () => '/api/v1/favourites' },
  notifications: { url: () => '/api/v1/notifications' },
  notification: { url: (_w, ids) => `/api/v1/notifications/${ids.notification}` },
  clearNotifications: { url: () => '/api/v1/notifications/clear' },
  dismissNotification: { url: (_w, ids) => `/api/v1/notifications/${ids.notification}/dismiss` },
  unreadCountV1: { url: () => '/api/v1/notifications/unread_count' },
  groupedNotifications: { url: () => '/api/v2/notifications?limit=5' },
  notificationGroup: { url: (_w, ids) => `/api/v2/notifications/${ids.group}` },
  notificationGroupAccounts: { url: (_w, ids) => `/api/v2/notifications/${ids.group}/accounts` },
  dismissNotificationGroup: { url: (_w, ids) => `/api/v2/notifications/${ids.group}/dismiss` },
  unreadCount: { url: () => '/api/v2/notifications/unread_count' },
  notificationPolicy: { url: () => '/api/v2/notifications/policy' },
  markers: { url: () => '/api/v1/markers?timeline[]=notifications' },
  saveMarkers: { url: () => '/api/v1/markers', body: {} },
  search: { url: () => '/api/v2/search?q=bob' },
  uploadMedia: { url: () => '/api/v2/media', upload: true },
  uploadMediaV1: { url: () => '/api/v1/media', upload: true },
  media: { url: (_w, ids) => `/api/v1/media/${ids.media}` },
  describeMedia: { url: (_w, ids) => `/api/v1/media/${ids.media}`, body: { description: 'a photo' } },
  conversations: { url: () => '/api/v1/conversations?limit=5' },
  readConversation: { url: (_w, ids) => `/api/v1/conversations/${ids.conversation}/read` },
  removeConversation: { url: (_w, ids) => `/api/v1/conversations/${ids.conversation}` },
  streamingHealth: { url: () => '/api/v1/streaming/health' },
  lists: { url: () => '/api/v1/lists' },
  createList: { url: () => '/api/v1/lists', body: { title: 'Birds', replies_policy: 'followed' } },
  list: { url: (_w, ids) => `/api/v1/lists/${ids.list}` },
  updateList: { url: (_w, ids) => `/api/v1/lists/${ids.list}`, body: { title: 'Renamed', exclusive: true } },
  deleteList: { url: (_w, ids) => `/api/v1/lists/${ids.list}` },
  listAccounts: { url: (_w, ids) => `/api/v1/lists/${ids.list}/accounts` },
  addListAccounts: {
    url: (_w, ids) => `/api/v1/lists/${ids.list}/accounts`,
    body: (w: World) => ({ account_ids: [bob(w)] }),
  },
  removeListAccounts: {
    url: (_w, ids) => `/api/v1/lists/${ids.list}/accounts`,
    body: (w: World) => ({ account_ids: [bob(w)] }),
  },
  listTimeline: { url: (_w, ids) => `/api/v1/timelines/list/${ids.list}` },
  accountLists: { url: (w) => `/api/v1/accounts/${bob(w)}/lists` },
  filtersV1: { url: () => '/api/v1/filters' },
  filters: { url: () => '/api/v2/filters' },
  announcements: { url: () => '/api/v1/announcements' },
  tag: { url: () => '/api/v1/tags/Birds' },
  followTag: { url: () => '/api/v1/tags/birds/follow' },
  unfollowTag: { url: () => '/api/v1/tags/owls/unfollow' },
  followedTags: { url: () => '/api/v1/followed_tags' },
  suggestionsV2: { url: () => '/api/v2/suggestions' },
  suggestions: { url: () => '/api/v1/suggestions' },
  trends: { url: () => '/api/v1/trends' },
  trendingTags: { url: () => '/api/v1/trends/tags' },
  trendingStatuses: { url: () => '/api/v1/trends/statuses' },
  trendingLinks: { url: () => '/api/v1/trends/links' },
  domainBlocks: { url: () => '/api/v1/domain_blocks' },
  endorsements: { url: () => '/api/v1/endorsements' },
  featuredTags: { url: () => '/api/v1/featured_tags' },
  scheduledStatuses: { url: () => '/api/v1/scheduled_statuses' },
  scheduledStatus: { url: (_w, ids) => `/api/v1/scheduled_statuses/${ids.scheduled}` },
  updateScheduledStatus: {
    url: (_w, ids) => `/api/v1/scheduled_statuses/${ids.scheduled}`,
    body: { scheduled_at: new Date(Date.now() + 2 * 86_400_000).toISOString() },
  },
  deleteScheduledStatus: { url: (_w, ids) => `/api/v1/scheduled_statuses/${ids.scheduled}` },
  createPushSubscription: {
    url: () => '/api/v1/push/subscription',
    body: {
      subscription: { endpoint: 'https://push.example/send/app', keys: TEST_PUSH_KEYS, standard: true },
      data: { alerts: { mention: true, favourite: true }, policy: 'all' },
    },
  },
  pushSubscription: { url: () => '/api/v1/push/subscription' },
  updatePushSubscription: { url: () => '/api/v1/push/subscription', body: { data: { alerts: { follow: true } } } },
  deletePushSubscription: { url: () => '/api/v1/push/subscription' },
};

/**
 * Not validated: the description's GET /api/v1/filters declares one filter where Mastodon answers a
 * list (test/mastodon/empty.test.ts); GET /api/v1/trends (the old name of trends/tags) is not in it.
 */
const NOT_VALIDATED = new Set<MastodonEndpointName>(['filtersV1', 'trends']);
/** Routes whose answer is not JSON. */
const NOT_JSON = new Set<MastodonEndpointName>(['streamingHealth']);

describe('the Mastodon route table', () => {
  // The instance's contact is the first admin's email (the description wants a real address).
  const ctx = useTestApp({ adminEmails: ['admin@pipit.example'] });

  it('matches the routes registered under /api/v1 and /api/v2', () => {
    const registered = listRoutes(ctx.app)
      .filter((r) => /^\/api\/v[12]\//.test(r.url) && r.method !== 'OPTIONS' && r.method !== 'HEAD')
      // OAuth's app registration (modules/oauth) and the WebSocket endpoint (its own handshake).
      .filter((r) => r.url !== '/api/v1/apps' && r.url !== '/api/v1/streaming')
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    const declared = Object.values(mastodonEndpoints)
      .map((e) => `${e.method} ${e.path}`)
      .sort();
    expect(registered).toEqual(declared);
  });

  it('answers every entry with a token as the description says, and refuses it without one where a token is needed', async () => {
    const w = await seedWorld(ctx);
    const token = w.oauth.aliceToken;
    const upload = multipart([{ name: 'file', file: await photo(40, 30) }]);
    const uploaded = await mastodonCall(ctx.app, {
      method: 'POST',
      url: '/api/v2/media',
      headers: { authorization: `Bearer ${token}`, ...upload.headers },
      payload: upload.payload,
    });
    const notifications = await mastodonCall(ctx.app, {
      method: 'GET',
      url: '/api/v1/notifications',
      headers: { authorization: `Bearer ${token}` },
    });
    const groups = await mastodonCall(ctx.app, {
      method: 'GET',
      url: '/api/v2/notifications',
      headers: { authorization: `Bearer ${token}` },
    });
    // A list of alice's with bob on it (alice follows him for it).
    expect((await w.alice.put(`/api/users/${w.ids.bob}/follow`)).statusCode).toBe(200);
    const list = (await w.alice.post('/api/lists', { title: 'Friends' })).json<{ id: string }>().id;
    expect((await w.alice.put(`/api/lists/${list}/members/${w.ids.bob}`)).statusCode).toBe(200);
    const scheduledAt = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = (await w.alice.post('/api/scheduled-posts', { post: { text: 'later' }, scheduledAt })).json<{
      id: string;
    }>().id;
    const ids = {
      scheduled,
      list,
      conversation: w.aliceConversation,
      media: uploaded.json<{ id: string }>().id,
      // The oldest notification, and the newest group: dismissing one leaves the other to dismiss.
      notification: notifications.json<{ id: string }[]>().at(-1)?.id ?? '',
      group: groups.json<{ notification_groups: { group_key: string }[] }>().notification_groups[0]?.group_key ?? '',
    };
    expect(ids.notification).not.toBe('');
    expect(ids.group).not.toBe('');
    expect(ids.group).not.toBe(`ungrouped-${ids.notification}`);

    const names = Object.keys(mastodonEndpoints) as MastodonEndpointName[];
    // Destructive calls last (dismiss and clear before a notification is read; delete after the status is).
    const last: MastodonEndpointName[] = [
      'removeConversation',
      'dismissNotificationGroup',
      'dismissNotification',
      'clearNotifications',
      'deleteStatus',
      'deleteList',
      'deleteScheduledStatus',
      'deletePushSubscription',
    ];
    const order = [...names.filter((n) => !last.includes(n)), ...last];
    for (const name of order) {
      const endpoint = mastodonEndpoints[name];
      const call = CALLS[name];
      const url = call.url(w, ids);
      const body = call.upload ? multipart([{ name: 'file', file: await photo(40, 30) }]) : null;
      const json = typeof call.body === 'function' ? call.body(w) : call.body;
      const request = (headers: Record<string, string>) => {
        const options = {
          method: endpoint.method,
          url,
          headers: { ...headers, ...(body ? body.headers : {}) },
          ...(body ? { payload: body.payload } : json ? { payload: json } : {}),
        };
        return NOT_VALIDATED.has(name) || NOT_JSON.has(name)
          ? inject(ctx.app, options)
          : mastodonCall(ctx.app, options);
      };
      if (endpoint.scope) {
        const refused = await request({});
        expect([name, refused.statusCode]).toEqual([name, 401]);
        expect(refused.headers['www-authenticate'], name).toMatch(/^Bearer /);
      }
      const res = await request({ authorization: `Bearer ${token}` });
      expect([name, res.statusCode], res.body).toEqual([name, call.status ?? 200]);
      expect(res.headers['access-control-allow-origin'], name).toBe('*');
    }
  });
});
