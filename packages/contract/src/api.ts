/**
 * Every path of the product API, shared by the server's routes and the web client.
 * Methods and shapes:
 *
 * | call | answer |
 * |---|---|
 * | GET    /api/current                 | CurrentUser (401 when signed out) |
 * | GET    /api/users?limit             | UserSummary[] — Who To Follow suggestions |
 * | GET    /api/users/:id               | User |
 * | GET    /api/users/by-username/:name | User — where an @mention points |
 * | POST   /api/register                | 201 CurrentUser |
 * | PATCH  /api/edit                    | CurrentUser |
 * | POST   /api/posts                   | 201 Post (a reply when parentId is set) |
 * | GET    /api/posts/:id               | Post |
 * | DELETE /api/posts/:id               | 204 |
 * | GET    /api/posts/:id/replies       | Page<Post>, oldest first |
 * | GET    /api/posts/:id/ancestors     | {items: Post[]} — the conversation above it, root first (at most 50) |
 * | PUT    /api/posts/:id/like          | Post (idempotent) |
 * | DELETE /api/posts/:id/like          | Post (idempotent) |
 * | GET    /api/users/:id/posts         | Page<Post>, newest first |
 * | PUT    /api/users/:id/follow        | User (idempotent) |
 * | DELETE /api/users/:id/follow        | User (idempotent) |
 * | GET    /api/users/:id/followers     | Page<User> |
 * | GET    /api/users/:id/following     | Page<User> |
 * | GET    /api/timeline/everyone       | Page<Post> (visitors too) |
 * | GET    /api/timeline/following      | Page<Post> (members only) |
 * | GET    /api/notifications           | Page<Notification>, newest first |
 * | POST   /api/notifications/read      | 204 — marks every notification read |
 *
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
  like: (id: string) => `/api/posts/${id}/like`,
  userPosts: (id: string) => `/api/users/${id}/posts`,
  follow: (id: string) => `/api/users/${id}/follow`,
  followers: (id: string) => `/api/users/${id}/followers`,
  following: (id: string) => `/api/users/${id}/following`,
  timelineEveryone: '/api/timeline/everyone',
  timelineFollowing: '/api/timeline/following',
  notifications: '/api/notifications',
  notificationsRead: '/api/notifications/read',
} as const;
