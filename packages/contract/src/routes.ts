import { api } from './api.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const ID = ':id';

/**
 * Where each call of the product API lives: its method and path (Fastify's `:param` syntax). Kept
 * apart from the schemas (endpoints.ts) so the web can send calls by name without bundling zod;
 * `endpoints` spreads each entry, so the two cannot disagree.
 */
export const routes = {
  register: { method: 'POST', path: api.register },
  current: { method: 'GET', path: api.current },
  edit: { method: 'PATCH', path: api.edit },
  suggestions: { method: 'GET', path: api.users },
  user: { method: 'GET', path: api.user(ID) },
  userByUsername: { method: 'GET', path: api.userByUsername(':username') },
  userPosts: { method: 'GET', path: api.userPosts(ID) },
  createPost: { method: 'POST', path: api.posts },
  post: { method: 'GET', path: api.post(ID) },
  uploadMedia: { method: 'POST', path: api.media },
  deletePost: { method: 'DELETE', path: api.post(ID) },
  replies: { method: 'GET', path: api.replies(ID) },
  ancestors: { method: 'GET', path: api.ancestors(ID) },
  likePost: { method: 'PUT', path: api.like(ID) },
  unlikePost: { method: 'DELETE', path: api.like(ID) },
  repostPost: { method: 'PUT', path: api.repost(ID) },
  unrepostPost: { method: 'DELETE', path: api.repost(ID) },
  bookmarkPost: { method: 'PUT', path: api.bookmark(ID) },
  unbookmarkPost: { method: 'DELETE', path: api.bookmark(ID) },
  bookmarks: { method: 'GET', path: api.bookmarks },
  follow: { method: 'PUT', path: api.follow(ID) },
  unfollow: { method: 'DELETE', path: api.follow(ID) },
  followers: { method: 'GET', path: api.followers(ID) },
  following: { method: 'GET', path: api.following(ID) },
  hashtagPosts: { method: 'GET', path: '/api/hashtags/:tag/posts' },
  trendingHashtags: { method: 'GET', path: api.trendingHashtags },
  searchPosts: { method: 'GET', path: api.searchPosts },
  searchPeople: { method: 'GET', path: api.searchPeople },
  searchHashtags: { method: 'GET', path: api.searchHashtags },
  timelineEveryone: { method: 'GET', path: api.timelineEveryone },
  timelineFollowing: { method: 'GET', path: api.timelineFollowing },
  notifications: { method: 'GET', path: api.notifications },
  markNotificationsRead: { method: 'POST', path: api.notificationsRead },
  unreadNotifications: { method: 'GET', path: api.notificationsUnread },
  changePassword: { method: 'POST', path: api.changePassword },
  changeEmail: { method: 'POST', path: api.changeEmail },
  sessions: { method: 'GET', path: api.sessions },
  revokeSession: { method: 'DELETE', path: api.session(ID) },
  revokeOtherSessions: { method: 'POST', path: api.revokeOtherSessions },
  deleteAccount: { method: 'DELETE', path: api.account },
  exportAccount: { method: 'GET', path: api.accountExport },
  requestPasswordReset: { method: 'POST', path: api.passwordReset },
  resetPassword: { method: 'POST', path: api.passwordResetConfirm },
  block: { method: 'PUT', path: api.block(ID) },
  unblock: { method: 'DELETE', path: api.block(ID) },
  mute: { method: 'PUT', path: api.mute(ID) },
  unmute: { method: 'DELETE', path: api.mute(ID) },
  blocks: { method: 'GET', path: api.blocks },
  mutes: { method: 'GET', path: api.mutes },
  mutedWords: { method: 'GET', path: api.mutedWords },
  addMutedWord: { method: 'POST', path: api.mutedWords },
  removeMutedWord: { method: 'DELETE', path: api.mutedWord(ID) },
  reportPost: { method: 'POST', path: api.reportPost(ID) },
  reportUser: { method: 'POST', path: api.reportUser(ID) },
  myReports: { method: 'GET', path: api.reports },
  moderationReports: { method: 'GET', path: api.moderationReports },
  resolveReport: { method: 'POST', path: api.resolveReport(ID) },
  suspend: { method: 'PUT', path: api.suspension(ID) },
  unsuspend: { method: 'DELETE', path: api.suspension(ID) },
  setRole: { method: 'PUT', path: api.role(ID) },
  moderationAccounts: { method: 'GET', path: api.moderationAccounts },
  auditLog: { method: 'GET', path: api.auditLog },
  stream: { method: 'GET', path: api.stream },
} as const satisfies Record<string, { method: HttpMethod; path: string }>;

export type RouteName = keyof typeof routes;
