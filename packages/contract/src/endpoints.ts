import { z } from 'zod';
import { idParams, page, pageQuery } from './common.ts';
import { conversationPage } from './conversations.ts';
import {
  draft,
  draftList,
  saveDraftBody,
  scheduledPost,
  scheduledPostList,
  schedulePostBody,
  updateScheduledPostBody,
} from './drafts.ts';
import { editPostBody, postHistory } from './edits.ts';
import type { ErrorCode } from './errors.ts';
import { hashtag, hashtagParams, trendingHashtags } from './hashtags.ts';
import {
  createListBody,
  list,
  listCandidates,
  listCandidatesQuery,
  listList,
  listMemberParams,
  updateListBody,
} from './lists.ts';
import { mediaAttachment } from './media.ts';
import {
  auditPage,
  domainBlock,
  domainBlockBody,
  domainBlockList,
  domainParams,
  moderatedUser,
  moderatedUserPage,
  moderationAccountsQuery,
  moderationReport,
  moderationReportPage,
  moderationReportsQuery,
  report,
  reportBody,
  reportPage,
  resolveReportBody,
  roleBody,
} from './moderation.ts';
import { notificationPage, unreadCount } from './notifications.ts';
import {
  authorizationDecision,
  authorizationInfo,
  authorizationQuery,
  authorizationResult,
  authorizedAppList,
} from './oauth.ts';
import { votePollBody } from './polls.ts';
import { createPostBody, post, postAncestors, postPage } from './posts.ts';
import { pushState, pushSubscriptionBody } from './push.ts';
import { type HttpMethod, type RouteName, routes } from './routes.ts';
import { muteBody, mutedAccountPage, mutedWord, mutedWordBody, mutedWordList } from './safety.ts';
import {
  hashtagSearchQuery,
  hashtagSearchResult,
  peopleSearchQuery,
  peopleSearchResult,
  postSearchQuery,
} from './search.ts';
import {
  changeEmailBody,
  changePasswordBody,
  deleteAccountBody,
  passwordResetBody,
  passwordResetRequestBody,
  sessionList,
} from './settings.ts';
import {
  addPasskeyBody,
  passkeyInfo,
  passkeyList,
  passkeyOptionsBody,
  recoveryCodeList,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorSetup,
  twoFactorSetupBody,
  twoFactorStatus,
  webauthnOptions,
} from './two-factor.ts';
import { currentUser, editBody, registerBody, suggestionsQuery, user, usernameParams, userSummary } from './users.ts';

/**
 * One call of the product API: its method and path (Fastify's `:param` syntax), what it takes, what
 * it answers on success (`status` and `answer`, `null` for no body), and the error codes it declares
 * (each answered as the contract's error shape and each tested).
 */
export interface Endpoint {
  method: HttpMethod;
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  status: 200 | 201 | 204;
  answer: z.ZodType;
  errors: readonly ErrorCode[];
}

/**
 * Every call but GETs can also answer these, whether or not it takes a body: a body that is not JSON,
 * is broken or is over the limit (the server reads any body sent; plugins/json-body.ts), a missing
 * CSRF token (plugins/csrf.ts) and the write limit (plugins/rate-limit.ts).
 */
const WRITE: readonly ErrorCode[] = [
  'INVALID_INPUT',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'CSRF_FAILED',
  'RATE_LIMITED',
];

/**
 * The product API (outside /api/auth, whose protocol is NextAuth's). The server registers its routes
 * from this table (server/src/lib/endpoint.ts) and a test checks that the two match; the web types
 * its calls from it (types only: zod stays out of the bundle).
 */
/**
 * Checks the table against the routes (every route has an entry, each entry an `Endpoint`). A call,
 * so the web build can drop the whole table as unused (web/vite.config.ts marks such exports pure).
 */
const defineEndpoints = <const T extends Record<RouteName, Endpoint>>(table: T): T => table;

export const endpoints = defineEndpoints({
  register: {
    ...routes.register,
    body: registerBody,
    status: 201,
    answer: currentUser,
    errors: ['EMAIL_TAKEN', 'USERNAME_TAKEN', ...WRITE],
  },
  current: { ...routes.current, status: 200, answer: currentUser, errors: ['UNAUTHENTICATED'] },
  edit: {
    ...routes.edit,
    body: editBody,
    status: 200,
    answer: currentUser,
    errors: ['UNAUTHENTICATED', 'USERNAME_TAKEN', 'UNSUPPORTED_IMAGE', 'IMAGE_TOO_LARGE', ...WRITE],
  },
  suggestions: {
    ...routes.suggestions,
    query: suggestionsQuery,
    status: 200,
    answer: z.array(userSummary),
    errors: ['INVALID_INPUT'],
  },
  user: { ...routes.user, params: idParams, status: 200, answer: user, errors: ['NOT_FOUND'] },
  userByUsername: {
    ...routes.userByUsername,
    params: usernameParams,
    status: 200,
    answer: user,
    errors: ['NOT_FOUND'],
  },
  userPosts: {
    ...routes.userPosts,
    params: idParams,
    query: pageQuery,
    status: 200,
    answer: postPage,
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  },
  createPost: {
    ...routes.createPost,
    body: createPostBody,
    status: 201,
    answer: post,
    // FORBIDDEN: a quote the quoted post's author does not allow (its quote policy).
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', 'FORBIDDEN', ...WRITE],
  },
  /** multipart/form-data (UPLOAD_FIELDS), not JSON: no body schema; modules/media reads the parts. */
  uploadMedia: {
    ...routes.uploadMedia,
    status: 201,
    answer: mediaAttachment,
    errors: ['UNAUTHENTICATED', 'UNSUPPORTED_IMAGE', 'IMAGE_TOO_LARGE', ...WRITE],
  },
  post: { ...routes.post, params: idParams, status: 200, answer: post, errors: ['NOT_FOUND'] },
  deletePost: {
    ...routes.deletePost,
    params: idParams,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', ...WRITE],
  },
  /** The author edits the post (edits.ts): 404 when they cannot see it, 403 when it is not theirs. */
  editPost: {
    ...routes.editPost,
    params: idParams,
    body: editPostBody,
    status: 200,
    answer: post,
    errors: ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', ...WRITE],
  },
  postHistory: { ...routes.postHistory, params: idParams, status: 200, answer: postHistory, errors: ['NOT_FOUND'] },
  replies: {
    ...routes.replies,
    params: idParams,
    query: pageQuery,
    status: 200,
    answer: postPage,
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  },
  ancestors: { ...routes.ancestors, params: idParams, status: 200, answer: postAncestors, errors: ['NOT_FOUND'] },
  likePost: {
    ...routes.likePost,
    params: idParams,
    status: 200,
    answer: post,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  /**
   * One vote per person, in one go: ALREADY_VOTED for a second, POLL_ENDED once it has ended,
   * INVALID_INPUT (`choices`) for an option that is not there or several on a single-choice poll,
   * NOT_FOUND for a post without a poll or one the voter may not see. Answers the post.
   */
  votePoll: {
    ...routes.votePoll,
    params: idParams,
    body: votePollBody,
    status: 200,
    answer: post,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', 'ALREADY_VOTED', 'POLL_ENDED', ...WRITE],
  },
  unlikePost: {
    ...routes.unlikePost,
    params: idParams,
    status: 200,
    answer: post,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  repostPost: {
    ...routes.repostPost,
    params: idParams,
    status: 200,
    answer: post,
    // FORBIDDEN: a followers-only or direct post (only public and unlisted ones are reposted).
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', 'FORBIDDEN', ...WRITE],
  },
  unrepostPost: {
    ...routes.unrepostPost,
    params: idParams,
    status: 200,
    answer: post,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  bookmarkPost: {
    ...routes.bookmarkPost,
    params: idParams,
    status: 200,
    answer: post,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  unbookmarkPost: {
    ...routes.unbookmarkPost,
    params: idParams,
    status: 200,
    answer: post,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  bookmarks: {
    ...routes.bookmarks,
    query: pageQuery,
    status: 200,
    answer: postPage,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  follow: {
    ...routes.follow,
    params: idParams,
    status: 200,
    answer: user,
    // FORBIDDEN: a block between the two.
    errors: ['UNAUTHENTICATED', 'CANNOT_FOLLOW_SELF', 'FORBIDDEN', 'NOT_FOUND', ...WRITE],
  },
  unfollow: {
    ...routes.unfollow,
    params: idParams,
    status: 200,
    answer: user,
    errors: ['UNAUTHENTICATED', 'CANNOT_FOLLOW_SELF', 'NOT_FOUND', ...WRITE],
  },
  followers: {
    ...routes.followers,
    params: idParams,
    query: pageQuery,
    status: 200,
    answer: page(user),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  },
  following: {
    ...routes.following,
    params: idParams,
    query: pageQuery,
    status: 200,
    answer: page(user),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  },
  followRequests: {
    ...routes.followRequests,
    query: pageQuery,
    status: 200,
    answer: page(user),
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  // Both answer the requester as the owner now sees them; NOT_FOUND: no request from them is waiting.
  approveFollowRequest: {
    ...routes.approveFollowRequest,
    params: idParams,
    status: 200,
    answer: user,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  rejectFollowRequest: {
    ...routes.rejectFollowRequest,
    params: idParams,
    status: 200,
    answer: user,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  hashtagPosts: {
    ...routes.hashtagPosts,
    params: hashtagParams,
    query: pageQuery,
    status: 200,
    answer: postPage,
    errors: ['INVALID_INPUT'],
  },
  trendingHashtags: { ...routes.trendingHashtags, status: 200, answer: trendingHashtags, errors: [] },
  hashtag: {
    ...routes.hashtag,
    params: hashtagParams,
    status: 200,
    answer: hashtag,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  followHashtag: {
    ...routes.followHashtag,
    params: hashtagParams,
    status: 200,
    answer: hashtag,
    // LIMIT_REACHED: already following MAX_FOLLOWED_HASHTAGS tags.
    errors: ['UNAUTHENTICATED', 'LIMIT_REACHED', ...WRITE],
  },
  unfollowHashtag: {
    ...routes.unfollowHashtag,
    params: hashtagParams,
    status: 200,
    answer: hashtag,
    errors: ['UNAUTHENTICATED', ...WRITE],
  },
  followedHashtags: {
    ...routes.followedHashtags,
    query: pageQuery,
    status: 200,
    answer: page(hashtag),
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  searchPosts: {
    ...routes.searchPosts,
    query: postSearchQuery,
    status: 200,
    answer: postPage,
    errors: ['INVALID_INPUT'],
  },
  searchPeople: {
    ...routes.searchPeople,
    query: peopleSearchQuery,
    status: 200,
    answer: peopleSearchResult,
    // UNAUTHENTICATED: resolve=true from a visitor (looking someone up elsewhere is for members).
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  searchHashtags: {
    ...routes.searchHashtags,
    query: hashtagSearchQuery,
    status: 200,
    answer: hashtagSearchResult,
    errors: ['INVALID_INPUT'],
  },
  timelineEveryone: {
    ...routes.timelineEveryone,
    query: pageQuery,
    status: 200,
    answer: postPage,
    errors: ['INVALID_INPUT'],
  },
  timelineFollowing: {
    ...routes.timelineFollowing,
    query: pageQuery,
    status: 200,
    answer: postPage,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  notifications: {
    ...routes.notifications,
    query: pageQuery,
    status: 200,
    answer: notificationPage,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  unreadNotifications: {
    ...routes.unreadNotifications,
    status: 200,
    answer: unreadCount,
    errors: ['UNAUTHENTICATED'],
  },
  markNotificationsRead: {
    ...routes.markNotificationsRead,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', ...WRITE],
  },
  conversations: {
    ...routes.conversations,
    query: pageQuery,
    status: 200,
    answer: conversationPage,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  unreadConversations: {
    ...routes.unreadConversations,
    status: 200,
    answer: unreadCount,
    errors: ['UNAUTHENTICATED'],
  },
  /** NOT_FOUND: no conversation of the viewer's by that id (never in it, or removed). */
  readConversation: {
    ...routes.readConversation,
    params: idParams,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  /** Removes it from the viewer's list only (a new post in it brings it back). */
  removeConversation: {
    ...routes.removeConversation,
    params: idParams,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  changePassword: {
    ...routes.changePassword,
    body: changePasswordBody,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', ...WRITE],
  },
  changeEmail: {
    ...routes.changeEmail,
    body: changeEmailBody,
    status: 200,
    answer: currentUser,
    errors: ['UNAUTHENTICATED', 'EMAIL_TAKEN', ...WRITE],
  },
  sessions: { ...routes.sessions, status: 200, answer: sessionList, errors: ['UNAUTHENTICATED'] },
  revokeSession: {
    ...routes.revokeSession,
    params: idParams,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  revokeOtherSessions: {
    ...routes.revokeOtherSessions,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', ...WRITE],
  },
  twoFactorStatus: { ...routes.twoFactorStatus, status: 200, answer: twoFactorStatus, errors: ['UNAUTHENTICATED'] },
  twoFactorSetup: {
    ...routes.twoFactorSetup,
    body: twoFactorSetupBody,
    status: 200,
    answer: twoFactorSetup,
    errors: ['UNAUTHENTICATED', ...WRITE],
  },
  twoFactorEnable: {
    ...routes.twoFactorEnable,
    body: twoFactorEnableBody,
    status: 200,
    answer: recoveryCodeList,
    errors: ['UNAUTHENTICATED', 'CONFLICT', ...WRITE],
  },
  twoFactorDisable: {
    ...routes.twoFactorDisable,
    body: twoFactorDisableBody,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', 'CONFLICT', ...WRITE],
  },
  passkeys: { ...routes.passkeys, status: 200, answer: passkeyList, errors: ['UNAUTHENTICATED'] },
  pushSubscription: { ...routes.pushSubscription, status: 200, answer: pushState, errors: ['UNAUTHENTICATED'] },
  savePushSubscription: {
    ...routes.savePushSubscription,
    body: pushSubscriptionBody,
    status: 200,
    answer: pushState,
    errors: ['UNAUTHENTICATED', 'LIMIT_REACHED', ...WRITE],
  },
  deletePushSubscription: {
    ...routes.deletePushSubscription,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', ...WRITE],
  },
  passkeyOptions: {
    ...routes.passkeyOptions,
    body: passkeyOptionsBody,
    status: 200,
    answer: webauthnOptions,
    errors: ['UNAUTHENTICATED', ...WRITE],
  },
  addPasskey: {
    ...routes.addPasskey,
    body: addPasskeyBody,
    status: 201,
    answer: passkeyInfo,
    errors: ['UNAUTHENTICATED', 'LIMIT_REACHED', ...WRITE],
  },
  removePasskey: {
    ...routes.removePasskey,
    params: idParams,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  passkeySignInOptions: {
    ...routes.passkeySignInOptions,
    status: 200,
    answer: webauthnOptions,
    errors: [...WRITE],
  },
  deleteAccount: {
    ...routes.deleteAccount,
    body: deleteAccountBody,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', ...WRITE],
  },
  /** application/zip, not JSON: registered by hand (modules/account/account.routes.ts). */
  exportAccount: { ...routes.exportAccount, status: 200, answer: z.string(), errors: ['UNAUTHENTICATED'] },
  requestPasswordReset: {
    ...routes.requestPasswordReset,
    body: passwordResetRequestBody,
    status: 204,
    answer: z.null(),
    errors: [...WRITE],
  },
  resetPassword: {
    ...routes.resetPassword,
    body: passwordResetBody,
    status: 204,
    answer: z.null(),
    errors: [...WRITE],
  },
  block: {
    ...routes.block,
    params: idParams,
    status: 200,
    answer: user,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  unblock: {
    ...routes.unblock,
    params: idParams,
    status: 200,
    answer: user,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  mute: {
    ...routes.mute,
    params: idParams,
    body: muteBody,
    status: 200,
    answer: user,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  unmute: {
    ...routes.unmute,
    params: idParams,
    status: 200,
    answer: user,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  blocks: {
    ...routes.blocks,
    query: pageQuery,
    status: 200,
    answer: page(user),
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  mutes: {
    ...routes.mutes,
    query: pageQuery,
    status: 200,
    answer: mutedAccountPage,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  mutedWords: { ...routes.mutedWords, status: 200, answer: mutedWordList, errors: ['UNAUTHENTICATED'] },
  addMutedWord: {
    ...routes.addMutedWord,
    body: mutedWordBody,
    status: 201,
    answer: mutedWord,
    errors: ['UNAUTHENTICATED', ...WRITE],
  },
  removeMutedWord: {
    ...routes.removeMutedWord,
    params: idParams,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  reportPost: {
    ...routes.reportPost,
    params: idParams,
    body: reportBody,
    status: 201,
    answer: report,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  reportUser: {
    ...routes.reportUser,
    params: idParams,
    body: reportBody,
    status: 201,
    answer: report,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  myReports: {
    ...routes.myReports,
    query: pageQuery,
    status: 200,
    answer: reportPage,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  // FORBIDDEN below: the viewer is not a moderator (setRole: not an admin).
  moderationReports: {
    ...routes.moderationReports,
    query: moderationReportsQuery,
    status: 200,
    answer: moderationReportPage,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED', 'FORBIDDEN'],
  },
  resolveReport: {
    ...routes.resolveReport,
    params: idParams,
    body: resolveReportBody,
    status: 200,
    answer: moderationReport,
    errors: ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', ...WRITE],
  },
  suspend: {
    ...routes.suspend,
    params: idParams,
    status: 200,
    answer: moderatedUser,
    errors: ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', ...WRITE],
  },
  unsuspend: {
    ...routes.unsuspend,
    params: idParams,
    status: 200,
    answer: moderatedUser,
    errors: ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', ...WRITE],
  },
  setRole: {
    ...routes.setRole,
    params: idParams,
    body: roleBody,
    status: 200,
    answer: moderatedUser,
    errors: ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', ...WRITE],
  },
  moderationAccounts: {
    ...routes.moderationAccounts,
    query: moderationAccountsQuery,
    status: 200,
    answer: moderatedUserPage,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED', 'FORBIDDEN'],
  },
  domainBlocks: {
    ...routes.domainBlocks,
    status: 200,
    answer: domainBlockList,
    errors: ['UNAUTHENTICATED', 'FORBIDDEN'],
  },
  blockDomain: {
    ...routes.blockDomain,
    body: domainBlockBody,
    status: 201,
    answer: domainBlock,
    errors: ['UNAUTHENTICATED', 'FORBIDDEN', ...WRITE],
  },
  unblockDomain: {
    ...routes.unblockDomain,
    params: domainParams,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', ...WRITE],
  },
  auditLog: {
    ...routes.auditLog,
    query: pageQuery,
    status: 200,
    answer: auditPage,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED', 'FORBIDDEN'],
  },
  authorization: {
    ...routes.authorization,
    query: authorizationQuery,
    status: 200,
    answer: authorizationInfo,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  decideAuthorization: {
    ...routes.decideAuthorization,
    body: authorizationDecision,
    status: 200,
    answer: authorizationResult,
    errors: ['UNAUTHENTICATED', ...WRITE],
  },
  authorizedApps: { ...routes.authorizedApps, status: 200, answer: authorizedAppList, errors: ['UNAUTHENTICATED'] },
  revokeApp: {
    ...routes.revokeApp,
    params: idParams,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  /** text/event-stream, not JSON: registered by hand (modules/stream/stream.routes.ts). */
  stream: { ...routes.stream, status: 200, answer: z.string(), errors: ['RATE_LIMITED'] },
  // Lists: someone else's list answers NOT_FOUND, as one that does not exist.
  lists: { ...routes.lists, status: 200, answer: listList, errors: ['UNAUTHENTICATED'] },
  createList: {
    ...routes.createList,
    body: createListBody,
    status: 201,
    answer: list,
    errors: ['UNAUTHENTICATED', 'LIMIT_REACHED', ...WRITE],
  },
  list: { ...routes.list, params: idParams, status: 200, answer: list, errors: ['UNAUTHENTICATED', 'NOT_FOUND'] },
  updateList: {
    ...routes.updateList,
    params: idParams,
    body: updateListBody,
    status: 200,
    answer: list,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  deleteList: {
    ...routes.deleteList,
    params: idParams,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  listPosts: {
    ...routes.listPosts,
    params: idParams,
    query: pageQuery,
    status: 200,
    answer: postPage,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED', 'NOT_FOUND'],
  },
  listMembers: {
    ...routes.listMembers,
    params: idParams,
    query: pageQuery,
    status: 200,
    answer: page(user),
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED', 'NOT_FOUND'],
  },
  addListMember: {
    ...routes.addListMember,
    params: listMemberParams,
    status: 200,
    answer: user,
    // NOT_FOLLOWING: only people the member follows; LIMIT_REACHED: the list is full.
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', 'NOT_FOLLOWING', 'LIMIT_REACHED', ...WRITE],
  },
  removeListMember: {
    ...routes.removeListMember,
    params: listMemberParams,
    status: 200,
    answer: user,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  listCandidates: {
    ...routes.listCandidates,
    params: idParams,
    query: listCandidatesQuery,
    status: 200,
    answer: listCandidates,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED', 'NOT_FOUND'],
  },
  // Drafts and scheduled posts (drafts.ts): someone else's answers NOT_FOUND, as one that does not exist.
  drafts: { ...routes.drafts, status: 200, answer: draftList, errors: ['UNAUTHENTICATED'] },
  createDraft: {
    ...routes.createDraft,
    body: saveDraftBody,
    status: 201,
    answer: draft,
    // INVALID_INPUT also for an image that is not an upload of one's own waiting for a post; LIMIT_REACHED: 100 drafts.
    errors: ['UNAUTHENTICATED', 'LIMIT_REACHED', ...WRITE],
  },
  draft: { ...routes.draft, params: idParams, status: 200, answer: draft, errors: ['UNAUTHENTICATED', 'NOT_FOUND'] },
  updateDraft: {
    ...routes.updateDraft,
    params: idParams,
    body: saveDraftBody,
    status: 200,
    answer: draft,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  deleteDraft: {
    ...routes.deleteDraft,
    params: idParams,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  scheduledPosts: { ...routes.scheduledPosts, status: 200, answer: scheduledPostList, errors: ['UNAUTHENTICATED'] },
  schedulePost: {
    ...routes.schedulePost,
    body: schedulePostBody,
    status: 201,
    answer: scheduledPost,
    // As POST /api/posts: NOT_FOUND for a parent or quoted post one cannot see, FORBIDDEN for a quote its
    // author does not allow; INVALID_INPUT for a time too soon or too far; LIMIT_REACHED: 300 waiting, 25 a day.
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', 'FORBIDDEN', 'LIMIT_REACHED', ...WRITE],
  },
  scheduledPost: {
    ...routes.scheduledPost,
    params: idParams,
    status: 200,
    answer: scheduledPost,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND'],
  },
  updateScheduledPost: {
    ...routes.updateScheduledPost,
    params: idParams,
    body: updateScheduledPostBody,
    status: 200,
    answer: scheduledPost,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', 'FORBIDDEN', 'LIMIT_REACHED', ...WRITE],
  },
  cancelScheduledPost: {
    ...routes.cancelScheduledPost,
    params: idParams,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
});

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
/** What a successful call of `N` answers (for the web's typed calls). */
export type EndpointAnswer<N extends EndpointName> = z.infer<Endpoints[N]['answer']>;
/** What `N` takes as its JSON body. */
export type EndpointBody<N extends EndpointName> = Endpoints[N] extends { body: z.ZodType }
  ? z.input<Endpoints[N]['body']>
  : never;
/** The `:params` of `N`'s path. */
export type EndpointParams<N extends EndpointName> = Endpoints[N] extends { params: z.ZodType }
  ? z.input<Endpoints[N]['params']>
  : never;
/** What `N` takes as its query string. */
export type EndpointQuery<N extends EndpointName> = Endpoints[N] extends { query: z.ZodType }
  ? z.input<Endpoints[N]['query']>
  : never;
