/**
 * The Mastodon client API Pipit answers, in one table: method, path (Fastify's syntax), the OAuth
 * scope a token needs (null: none; `app`: an app's own token will do), and the schemas of what the
 * route takes. Answers are Mastodon's entities (the presenters); the tests validate every answer of
 * every entry against the community OpenAPI description (test/mastodon), and check that the
 * registered routes and this table match.
 */
import type { z } from 'zod';
import {
  createListBody,
  listAccountsBody,
  markersBody,
  muteBody,
  pageQuery,
  reportBody,
  scheduledStatusBody,
  searchQuery,
  statusBody,
  statusEditBody,
  updateListBody,
  votePollBody,
} from './mastodon.schemas.ts';

export interface MastodonEndpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** The scope the token must grant; null when a visitor may call it. */
  scope: string | null;
  /** An app's own token (client credentials) will do; otherwise a person's token is needed. */
  app?: boolean;
  query?: z.ZodType;
  /** Read from JSON, form or multipart fields (`formFields` first). */
  body?: z.ZodType;
}

type More = Partial<Pick<MastodonEndpoint, 'app' | 'query' | 'body'>>;
// Generic in what is added, so each entry keeps its own schemas' types.
const get = <M extends More = Record<never, never>>(path: string, scope: string | null, more?: M) =>
  ({ method: 'GET', path, scope, ...more }) as { method: 'GET'; path: string; scope: string | null } & M;
const post = <M extends More = Record<never, never>>(path: string, scope: string, more?: M) =>
  ({ method: 'POST', path, scope, ...more }) as { method: 'POST'; path: string; scope: string } & M;

export const mastodonEndpoints = {
  // Instance (instance.routes.ts)
  instanceV2: get('/api/v2/instance', null),
  instanceV1: get('/api/v1/instance', null),
  instanceRules: get('/api/v1/instance/rules', null),
  instancePeers: get('/api/v1/instance/peers', null),
  // A person's token, of any scope (Mastodon's "users" setting for it).
  instanceDomainBlocks: get('/api/v1/instance/domain_blocks', null),
  instanceActivity: get('/api/v1/instance/activity', null),
  customEmojis: get('/api/v1/custom_emojis', null),

  // Accounts (accounts.routes.ts)
  verifyCredentials: get('/api/v1/accounts/verify_credentials', 'profile'),
  updateCredentials: { method: 'PATCH', path: '/api/v1/accounts/update_credentials', scope: 'write:accounts' },
  account: get('/api/v1/accounts/:id', null),
  lookup: get('/api/v1/accounts/lookup', 'read:accounts', { app: true }),
  accountStatuses: get('/api/v1/accounts/:id/statuses', null),
  accountFollowers: get('/api/v1/accounts/:id/followers', null),
  accountFollowing: get('/api/v1/accounts/:id/following', null),
  accountFeaturedTags: get('/api/v1/accounts/:id/featured_tags', null),
  accountSearch: get('/api/v1/accounts/search', 'read:accounts'),
  relationships: get('/api/v1/accounts/relationships', 'read:follows'),
  familiarFollowers: get('/api/v1/accounts/familiar_followers', 'read:follows'),
  follow: post('/api/v1/accounts/:id/follow', 'write:follows'),
  // The requests to follow a locked account (the path's id is the requester's).
  followRequests: get('/api/v1/follow_requests', 'read:follows'),
  authorizeFollowRequest: post('/api/v1/follow_requests/:id/authorize', 'write:follows'),
  rejectFollowRequest: post('/api/v1/follow_requests/:id/reject', 'write:follows'),
  unfollow: post('/api/v1/accounts/:id/unfollow', 'write:follows'),
  block: post('/api/v1/accounts/:id/block', 'write:blocks'),
  unblock: post('/api/v1/accounts/:id/unblock', 'write:blocks'),
  mute: post('/api/v1/accounts/:id/mute', 'write:mutes', { body: muteBody }),
  unmute: post('/api/v1/accounts/:id/unmute', 'write:mutes'),
  blocks: get('/api/v1/blocks', 'read:blocks'),
  mutes: get('/api/v1/mutes', 'read:mutes'),
  preferences: get('/api/v1/preferences', 'read:accounts'),

  // Reports (reports.routes.ts)
  createReport: post('/api/v1/reports', 'write:reports', { body: reportBody }),

  // Polls (polls.routes.ts): a poll's id is its post's.
  poll: get('/api/v1/polls/:id', null),
  votePoll: post('/api/v1/polls/:id/votes', 'write:statuses', { body: votePollBody }),

  // Statuses (statuses.routes.ts)
  createStatus: post('/api/v1/statuses', 'write:statuses', { body: statusBody }),
  status: get('/api/v1/statuses/:id', null),
  deleteStatus: { method: 'DELETE', path: '/api/v1/statuses/:id', scope: 'write:statuses' },
  // Edits (issue 28): the new status, its versions, its source text.
  editStatus: { method: 'PUT', path: '/api/v1/statuses/:id', scope: 'write:statuses', body: statusEditBody },
  statusHistory: get('/api/v1/statuses/:id/history', null),
  statusSource: get('/api/v1/statuses/:id/source', 'read:statuses'),
  context: get('/api/v1/statuses/:id/context', null),
  favouritedBy: get('/api/v1/statuses/:id/favourited_by', null),
  rebloggedBy: get('/api/v1/statuses/:id/reblogged_by', null),
  favourite: post('/api/v1/statuses/:id/favourite', 'write:favourites'),
  unfavourite: post('/api/v1/statuses/:id/unfavourite', 'write:favourites'),
  reblog: post('/api/v1/statuses/:id/reblog', 'write:statuses'),
  unreblog: post('/api/v1/statuses/:id/unreblog', 'write:statuses'),
  bookmark: post('/api/v1/statuses/:id/bookmark', 'write:bookmarks'),
  unbookmark: post('/api/v1/statuses/:id/unbookmark', 'write:bookmarks'),

  // Timelines and the lists of one's own (timelines.routes.ts)
  homeTimeline: get('/api/v1/timelines/home', 'read:statuses', { query: pageQuery }),
  publicTimeline: get('/api/v1/timelines/public', null, { query: pageQuery }),
  // The description's {hashtag}; named :tag like the web API's hashtag routes.
  tagTimeline: get('/api/v1/timelines/tag/:tag', null, { query: pageQuery }),
  bookmarks: get('/api/v1/bookmarks', 'read:bookmarks', { query: pageQuery }),
  favourites: get('/api/v1/favourites', 'read:favourites'),

  // Lists (lists.routes.ts)
  lists: get('/api/v1/lists', 'read:lists'),
  createList: post('/api/v1/lists', 'write:lists', { body: createListBody }),
  list: get('/api/v1/lists/:id', 'read:lists'),
  updateList: { method: 'PUT', path: '/api/v1/lists/:id', scope: 'write:lists', body: updateListBody },
  deleteList: { method: 'DELETE', path: '/api/v1/lists/:id', scope: 'write:lists' },
  listAccounts: get('/api/v1/lists/:id/accounts', 'read:lists'),
  addListAccounts: post('/api/v1/lists/:id/accounts', 'write:lists', { body: listAccountsBody }),
  // account_ids[] in the body, or in the query string as some apps send a DELETE's parameters.
  removeListAccounts: { method: 'DELETE', path: '/api/v1/lists/:id/accounts', scope: 'write:lists' },
  listTimeline: get('/api/v1/timelines/list/:list_id', 'read:lists', { query: pageQuery }),
  accountLists: get('/api/v1/accounts/:id/lists', 'read:lists'),

  // Notifications and the marker (notifications.routes.ts)
  notifications: get('/api/v1/notifications', 'read:notifications'),
  notification: get('/api/v1/notifications/:id', 'read:notifications'),
  clearNotifications: post('/api/v1/notifications/clear', 'write:notifications'),
  dismissNotification: post('/api/v1/notifications/:id/dismiss', 'write:notifications'),
  unreadCountV1: get('/api/v1/notifications/unread_count', 'read:notifications'),
  // Grouped notifications, API v2 (grouped-notifications.routes.ts).
  groupedNotifications: get('/api/v2/notifications', 'read:notifications'),
  notificationGroup: get('/api/v2/notifications/:group_key', 'read:notifications'),
  notificationGroupAccounts: get('/api/v2/notifications/:group_key/accounts', 'read:notifications'),
  dismissNotificationGroup: post('/api/v2/notifications/:group_key/dismiss', 'write:notifications'),
  unreadCount: get('/api/v2/notifications/unread_count', 'read:notifications'),
  notificationPolicy: get('/api/v2/notifications/policy', 'read:notifications'),
  markers: get('/api/v1/markers', 'read:statuses'),
  saveMarkers: post('/api/v1/markers', 'write:statuses', { body: markersBody }),

  // Search (search.routes.ts)
  search: get('/api/v2/search', null, { query: searchQuery }),

  // Media (media.routes.ts)
  uploadMedia: post('/api/v2/media', 'write:media'),
  uploadMediaV1: post('/api/v1/media', 'write:media'),
  media: get('/api/v1/media/:id', 'write:media'),
  describeMedia: { method: 'PUT', path: '/api/v1/media/:id', scope: 'write:media' },

  // Conversations: direct posts and their replies (conversations.routes.ts)
  conversations: get('/api/v1/conversations', 'read:statuses'),
  readConversation: post('/api/v1/conversations/:id/read', 'write:conversations'),
  removeConversation: { method: 'DELETE', path: '/api/v1/conversations/:id', scope: 'write:conversations' },

  // Streaming (streaming.routes.ts; its WebSocket takes the token its own way)
  streamingHealth: get('/api/v1/streaming/health', null),

  // Hashtags (tags.routes.ts): `:name` as Mastodon's description names it (apps send the name as the id).
  tag: get('/api/v1/tags/:name', null),
  followTag: post('/api/v1/tags/:name/follow', 'write:follows'),
  unfollowTag: post('/api/v1/tags/:name/unfollow', 'write:follows'),
  followedTags: get('/api/v1/followed_tags', 'read:follows', { query: pageQuery }),

  // Web Push (push.routes.ts): the token's one subscription. Bodies are read by the route (nested forms).
  createPushSubscription: post('/api/v1/push/subscription', 'push'),
  pushSubscription: get('/api/v1/push/subscription', 'push'),
  updatePushSubscription: { method: 'PUT', path: '/api/v1/push/subscription', scope: 'push' },
  deletePushSubscription: { method: 'DELETE', path: '/api/v1/push/subscription', scope: 'push' },

  // What Pipit does not have yet answers well-formed and empty, behind its scope (empty.routes.ts).
  filtersV1: get('/api/v1/filters', 'read:filters'),
  filters: get('/api/v2/filters', 'read:filters'),
  announcements: get('/api/v1/announcements', 'read'),
  suggestionsV2: get('/api/v2/suggestions', 'read'),
  suggestions: get('/api/v1/suggestions', 'read'),
  trends: get('/api/v1/trends', null),
  trendingTags: get('/api/v1/trends/tags', null),
  trendingStatuses: get('/api/v1/trends/statuses', null),
  trendingLinks: get('/api/v1/trends/links', null),
  domainBlocks: get('/api/v1/domain_blocks', 'read:blocks'),
  endorsements: get('/api/v1/endorsements', 'read:accounts'),
  featuredTags: get('/api/v1/featured_tags', 'read:accounts'),
  // Scheduled statuses (scheduled-statuses.routes.ts)
  scheduledStatuses: get('/api/v1/scheduled_statuses', 'read:statuses', { query: pageQuery }),
  scheduledStatus: get('/api/v1/scheduled_statuses/:id', 'read:statuses'),
  updateScheduledStatus: {
    method: 'PUT',
    path: '/api/v1/scheduled_statuses/:id',
    scope: 'write:statuses',
    body: scheduledStatusBody,
  },
  deleteScheduledStatus: { method: 'DELETE', path: '/api/v1/scheduled_statuses/:id', scope: 'write:statuses' },
} as const satisfies Record<string, MastodonEndpoint>;

export type MastodonEndpointName = keyof typeof mastodonEndpoints;
