/**
 * Every path of the product API, shared by the server's routes and the web client. Methods, inputs,
 * answers and declared errors: `endpoints` (endpoints.ts), the table the server registers from.
 * Lists take `?cursor=&limit=` (default 20, max 50) and answer `{items, nextCursor}`.
 */
export const api = {
  current: '/api/current',
  users: '/api/users',
  user: (id: string) => `/api/users/${id}`,
  // Usernames are [A-Za-z0-9_]: nothing to encode.
  userByUsername: (username: string) => `/api/users/by-username/${username}`,
  register: '/api/register',
  edit: '/api/edit',
  posts: '/api/posts',
  post: (id: string) => `/api/posts/${id}`,
  replies: (id: string) => `/api/posts/${id}/replies`,
  ancestors: (id: string) => `/api/posts/${id}/ancestors`,
  /** Every version of a post, oldest first (PATCH on the post itself edits it). */
  postHistory: (id: string) => `/api/posts/${id}/history`,
  like: (id: string) => `/api/posts/${id}/like`,
  bookmark: (id: string) => `/api/posts/${id}/bookmark`,
  repost: (id: string) => `/api/posts/${id}/repost`,
  /** Votes in the post's poll (one vote per person; answers the post). */
  pollVotes: (id: string) => `/api/posts/${id}/poll/votes`,
  /** The signed-in member's bookmarks, newest bookmark first. */
  bookmarks: '/api/bookmarks',
  /** Uploads one image for a post (multipart); answers the attachment to send in `media`. */
  media: '/api/media',
  userPosts: (id: string) => `/api/users/${id}/posts`,
  follow: (id: string) => `/api/users/${id}/follow`,
  followers: (id: string) => `/api/users/${id}/followers`,
  /** The requests to follow the signed-in member (a locked account), newest first; approve or reject each. */
  followRequests: '/api/follow-requests',
  approveFollowRequest: (id: string) => `/api/follow-requests/${id}/approve`,
  rejectFollowRequest: (id: string) => `/api/follow-requests/${id}/reject`,
  following: (id: string) => `/api/users/${id}/following`,
  hashtagPosts: (tag: string) => `/api/hashtags/${encodeURIComponent(tag)}/posts`,
  trendingHashtags: '/api/hashtags/trending',
  /** Whether the member follows a tag: GET reads it, PUT follows, DELETE unfollows (each answers it). */
  hashtagFollow: (tag: string) => `/api/hashtags/${encodeURIComponent(tag)}/follow`,
  /** The hashtags the member follows, newest follow first. */
  followedHashtags: '/api/followed-hashtags',
  searchPosts: '/api/search/posts',
  searchPeople: '/api/search/people',
  searchHashtags: '/api/search/hashtags',
  timelineEveryone: '/api/timeline/everyone',
  timelineFollowing: '/api/timeline/following',
  notifications: '/api/notifications',
  notificationsRead: '/api/notifications/read',
  notificationsUnread: '/api/notifications/unread',
  /** Direct posts as conversations (conversations.ts): the list, its unread count, read and remove one. */
  conversations: '/api/conversations',
  conversationsUnread: '/api/conversations/unread',
  conversation: (id: string) => `/api/conversations/${id}`,
  conversationRead: (id: string) => `/api/conversations/${id}/read`,
  /** Settings (settings.ts). */
  changePassword: '/api/settings/password',
  changeEmail: '/api/settings/email',
  sessions: '/api/sessions',
  session: (id: string) => `/api/sessions/${id}`,
  revokeOtherSessions: '/api/sessions/revoke-others',
  /** Two-factor sign-in and passkeys (two-factor.ts). */
  twoFactor: '/api/settings/two-factor',
  twoFactorSetup: '/api/settings/two-factor/setup',
  twoFactorEnable: '/api/settings/two-factor/enable',
  passkeys: '/api/passkeys',
  /** This browser's Web Push subscription (push.ts). */
  pushSubscription: '/api/push/subscription',
  passkey: (id: string) => `/api/passkeys/${id}`,
  passkeyOptions: '/api/passkeys/options',
  passkeySignInOptions: '/api/passkeys/sign-in-options',
  /** The account as a whole: DELETE deletes it; /export downloads a zip of everything that is the member's. */
  account: '/api/account',
  accountExport: '/api/account/export',
  /** Forgotten passwords: ask for a link by email, then set a new password with its token. */
  passwordReset: '/api/password-reset',
  passwordResetConfirm: '/api/password-reset/confirm',
  /** Lists (lists.ts): the member's lists, each one's members and timeline. */
  lists: '/api/lists',
  list: (id: string) => `/api/lists/${id}`,
  listPosts: (id: string) => `/api/lists/${id}/posts`,
  listMembers: (id: string) => `/api/lists/${id}/members`,
  listMember: (id: string, userId: string) => `/api/lists/${id}/members/${userId}`,
  listCandidates: (id: string) => `/api/lists/${id}/candidates`,
  /** Posts not sent yet (drafts.ts): drafts, and posts scheduled for a time. */
  drafts: '/api/drafts',
  draft: (id: string) => `/api/drafts/${id}`,
  scheduledPosts: '/api/scheduled-posts',
  scheduledPost: (id: string) => `/api/scheduled-posts/${id}`,
  /** Blocks and mutes (safety.ts). */
  block: (id: string) => `/api/users/${id}/block`,
  mute: (id: string) => `/api/users/${id}/mute`,
  blocks: '/api/blocks',
  mutes: '/api/mutes',
  mutedWords: '/api/muted-words',
  mutedWord: (id: string) => `/api/muted-words/${id}`,
  /** Reports (moderation.ts): a member reports a post or a person, and reads what came of their reports. */
  reportPost: (id: string) => `/api/posts/${id}/report`,
  reportUser: (id: string) => `/api/users/${id}/report`,
  reports: '/api/reports',
  /** Moderation: moderators and admins only. */
  moderationReports: '/api/moderation/reports',
  resolveReport: (id: string) => `/api/moderation/reports/${id}/resolve`,
  suspension: (id: string) => `/api/moderation/users/${id}/suspension`,
  role: (id: string) => `/api/moderation/users/${id}/role`,
  moderationAccounts: '/api/moderation/accounts',
  auditLog: '/api/moderation/log',
  domainBlocks: '/api/moderation/domains',
  domainBlock: (domain: string) => `/api/moderation/domains/${domain}`,
  /** Mastodon apps (oauth.ts): the consent page's request and answer, and the apps a member authorized. */
  oauthAuthorization: '/api/oauth/authorization',
  oauthApps: '/api/oauth/apps',
  oauthApp: (id: string) => `/api/oauth/apps/${id}`,
  /** Live updates: Server-Sent Events (live.ts). */
  stream: '/api/stream',
} as const;
