import { z } from 'zod';
import { api } from './api.ts';
import { idParams, page, pageQuery } from './common.ts';
import type { ErrorCode } from './errors.ts';
import { notificationPage } from './notifications.ts';
import { createPostBody, post, postAncestors, postPage } from './posts.ts';
import { currentUser, editBody, registerBody, suggestionsQuery, user, usernameParams, userSummary } from './users.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

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

const ID = ':id';
/** Every call but GETs can also answer these (plugins/csrf.ts, plugins/rate-limit.ts). */
const WRITE: readonly ErrorCode[] = ['CSRF_FAILED', 'RATE_LIMITED'];

/**
 * The product API (outside /api/auth, whose protocol is NextAuth's). The server registers its routes
 * from this table (server/src/lib/endpoint.ts) and a test checks that the two match; the web types
 * its calls from it (types only: zod stays out of the bundle).
 */
export const endpoints = {
  register: {
    method: 'POST',
    path: api.register,
    body: registerBody,
    status: 201,
    answer: currentUser,
    errors: ['INVALID_INPUT', 'EMAIL_TAKEN', 'USERNAME_TAKEN', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', ...WRITE],
  },
  current: { method: 'GET', path: api.current, status: 200, answer: currentUser, errors: ['UNAUTHENTICATED'] },
  edit: {
    method: 'PATCH',
    path: api.edit,
    body: editBody,
    status: 200,
    answer: currentUser,
    errors: [
      'INVALID_INPUT',
      'UNAUTHENTICATED',
      'USERNAME_TAKEN',
      'UNSUPPORTED_IMAGE',
      'IMAGE_TOO_LARGE',
      'PAYLOAD_TOO_LARGE',
      ...WRITE,
    ],
  },
  suggestions: {
    method: 'GET',
    path: api.users,
    query: suggestionsQuery,
    status: 200,
    answer: z.array(userSummary),
    errors: ['INVALID_INPUT'],
  },
  user: { method: 'GET', path: api.user(ID), params: idParams, status: 200, answer: user, errors: ['NOT_FOUND'] },
  userByUsername: {
    method: 'GET',
    path: api.userByUsername(':username'),
    params: usernameParams,
    status: 200,
    answer: user,
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  },
  userPosts: {
    method: 'GET',
    path: api.userPosts(ID),
    params: idParams,
    query: pageQuery,
    status: 200,
    answer: postPage,
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  },
  createPost: {
    method: 'POST',
    path: api.posts,
    body: createPostBody,
    status: 201,
    answer: post,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  post: { method: 'GET', path: api.post(ID), params: idParams, status: 200, answer: post, errors: ['NOT_FOUND'] },
  deletePost: {
    method: 'DELETE',
    path: api.post(ID),
    params: idParams,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', ...WRITE],
  },
  replies: {
    method: 'GET',
    path: api.replies(ID),
    params: idParams,
    query: pageQuery,
    status: 200,
    answer: postPage,
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  },
  ancestors: {
    method: 'GET',
    path: api.ancestors(ID),
    params: idParams,
    status: 200,
    answer: postAncestors,
    errors: ['NOT_FOUND'],
  },
  likePost: {
    method: 'PUT',
    path: api.like(ID),
    params: idParams,
    status: 200,
    answer: post,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  unlikePost: {
    method: 'DELETE',
    path: api.like(ID),
    params: idParams,
    status: 200,
    answer: post,
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...WRITE],
  },
  follow: {
    method: 'PUT',
    path: api.follow(ID),
    params: idParams,
    status: 200,
    answer: user,
    errors: ['UNAUTHENTICATED', 'CANNOT_FOLLOW_SELF', 'NOT_FOUND', ...WRITE],
  },
  unfollow: {
    method: 'DELETE',
    path: api.follow(ID),
    params: idParams,
    status: 200,
    answer: user,
    errors: ['UNAUTHENTICATED', 'CANNOT_FOLLOW_SELF', 'NOT_FOUND', ...WRITE],
  },
  followers: {
    method: 'GET',
    path: api.followers(ID),
    params: idParams,
    query: pageQuery,
    status: 200,
    answer: page(user),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  },
  following: {
    method: 'GET',
    path: api.following(ID),
    params: idParams,
    query: pageQuery,
    status: 200,
    answer: page(user),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  },
  timelineEveryone: {
    method: 'GET',
    path: api.timelineEveryone,
    query: pageQuery,
    status: 200,
    answer: postPage,
    errors: ['INVALID_INPUT'],
  },
  timelineFollowing: {
    method: 'GET',
    path: api.timelineFollowing,
    query: pageQuery,
    status: 200,
    answer: postPage,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  notifications: {
    method: 'GET',
    path: api.notifications,
    query: pageQuery,
    status: 200,
    answer: notificationPage,
    errors: ['INVALID_INPUT', 'UNAUTHENTICATED'],
  },
  markNotificationsRead: {
    method: 'POST',
    path: api.notificationsRead,
    status: 204,
    answer: z.null(),
    errors: ['UNAUTHENTICATED', ...WRITE],
  },
} as const satisfies Record<string, Endpoint>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
/** What a successful call of `N` answers (for the web's typed calls). */
export type EndpointAnswer<N extends EndpointName> = z.infer<Endpoints[N]['answer']>;
/** What `N` takes as its JSON body. */
export type EndpointBody<N extends EndpointName> = Endpoints[N] extends { body: z.ZodType }
  ? z.input<Endpoints[N]['body']>
  : never;
