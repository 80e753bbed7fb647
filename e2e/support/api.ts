/**
 * A small HTTP client for seeding data through the public API, speaking the same protocol as the
 * web app: a cookie jar, the CSRF token of /api/auth/csrf in X-CSRF-Token, credentials sign-in.
 */
import type { CreatePostBody, CurrentUser, MediaAttachment, Post, User } from '@pipit/contract';
import { CookieJar } from '../../server/test/helpers/cookie-jar.ts';

export const PASSWORD = 'correct horse battery staple';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} answered ${status}: ${JSON.stringify(body)}`);
  }
}

export class ApiClient {
  private readonly cookies = new CookieJar();
  private csrfToken: string | null = null;

  constructor(readonly baseUrl: string) {}

  /** The session and CSRF cookies, to hand a signed-in session to a browser context. */
  browserCookies(): { name: string; value: string; url: string }[] {
    return [...this.cookies].map(([name, value]) => ({ name, value: encodeURIComponent(value), url: this.baseUrl }));
  }

  async raw(
    method: string,
    path: string,
    init: { json?: unknown; form?: Record<string, string>; multipart?: FormData } = {},
  ) {
    // The token first: fetching it may set the CSRF cookie this request must carry.
    const csrf = method !== 'GET' && !path.startsWith('/api/auth/') ? await this.csrf() : null;
    const headers: Record<string, string> = { cookie: this.cookies.header() };
    if (csrf) headers['x-csrf-token'] = csrf;
    let body: string | FormData | undefined;
    if (init.multipart) {
      body = init.multipart;
    } else if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    this.cookies.absorb(res.headers.getSetCookie());
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed };
  }

  private async call<T>(
    method: string,
    path: string,
    json?: unknown,
    expected: number[] = [200, 201, 204],
  ): Promise<T> {
    const res = await this.raw(method, path, json === undefined ? {} : { json });
    if (!expected.includes(res.status)) throw new ApiError(res.status, res.body, `${method} ${path}`);
    return res.body as T;
  }

  async csrf(): Promise<string> {
    if (this.csrfToken) return this.csrfToken;
    const res = await this.raw('GET', '/api/auth/csrf');
    const token = (res.body as { csrfToken?: string } | null)?.csrfToken;
    if (res.status !== 200 || !token) throw new ApiError(res.status, res.body, 'GET /api/auth/csrf');
    this.csrfToken = token;
    return token;
  }

  async signIn(email: string, password = PASSWORD): Promise<void> {
    const csrfToken = await this.csrf();
    const res = await this.raw('POST', '/api/auth/callback/credentials', {
      form: { email, password, csrfToken, callbackUrl: `${this.baseUrl}/`, json: 'true' },
    });
    const url = (res.body as { url?: string } | null)?.url ?? '';
    if (res.status !== 200 || url.includes('error=') || url.includes('csrf=true')) {
      throw new ApiError(res.status, res.body, `sign-in of ${email}`);
    }
  }

  /** Registers and signs in, as the web app does after a successful registration. */
  async register(person: { email: string; username: string; name: string; password?: string }): Promise<CurrentUser> {
    const password = person.password ?? PASSWORD;
    await this.call('POST', '/api/register', { ...person, password }, [201]);
    await this.signIn(person.email, password);
    return this.current();
  }

  current(): Promise<CurrentUser> {
    return this.call('GET', '/api/current');
  }

  edit(fields: {
    name?: string;
    username?: string;
    bio?: string | null;
    profileImage?: string | null;
    coverImage?: string | null;
    defaultVisibility?: CurrentUser['defaultVisibility'];
    locked?: boolean;
  }): Promise<CurrentUser> {
    return this.call('PATCH', '/api/edit', fields);
  }

  post(text: string, parentId?: string, media?: { id: string; alt?: string }[]): Promise<Post> {
    return this.call(
      'POST',
      '/api/posts',
      { text, ...(parentId ? { parentId } : {}), ...(media ? { media } : {}) },
      [201],
    );
  }

  /** POST /api/posts with any of its fields (visibility, quote policy, …). */
  postWith(body: CreatePostBody): Promise<Post> {
    return this.call('POST', '/api/posts', body, [201]);
  }

  quote(text: string, quoteOfId: string): Promise<Post> {
    return this.call('POST', '/api/posts', { text, quoteOfId }, [201]);
  }

  /** POST /api/media: one image, as the composer sends it. */
  async upload(bytes: Buffer, type = 'image/jpeg', alt?: string): Promise<MediaAttachment> {
    const form = new FormData();
    if (alt !== undefined) form.append('alt', alt);
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), 'image');
    const res = await this.raw('POST', '/api/media', { multipart: form });
    if (res.status !== 201) throw new ApiError(res.status, res.body, 'POST /api/media');
    return res.body as MediaAttachment;
  }

  like(postId: string): Promise<Post> {
    return this.call('PUT', `/api/posts/${postId}/like`);
  }

  repost(postId: string): Promise<Post> {
    return this.call('PUT', `/api/posts/${postId}/repost`);
  }

  bookmark(postId: string): Promise<Post> {
    return this.call('PUT', `/api/posts/${postId}/bookmark`);
  }

  follow(userId: string): Promise<User> {
    return this.call('PUT', `/api/users/${userId}/follow`);
  }

  block(userId: string): Promise<User> {
    return this.call('PUT', `/api/users/${userId}/block`);
  }

  mute(userId: string, durationSeconds: number | null = null): Promise<User> {
    return this.call('PUT', `/api/users/${userId}/mute`, { durationSeconds });
  }

  muteWord(phrase: string): Promise<unknown> {
    return this.call('POST', '/api/muted-words', { phrase });
  }

  /** Reports a post or a person (category and comment as the Report dialog sends them). */
  report(kind: 'post' | 'user', id: string, category: string, comment = ''): Promise<unknown> {
    return this.call('POST', `/api/${kind === 'post' ? 'posts' : 'users'}/${id}/report`, { category, comment }, [201]);
  }

  /** A moderator's suspension of an account. */
  /** POST /api/moderation/domains (admins). */
  blockDomain(domain: string, reason = ''): Promise<unknown> {
    return this.call('POST', '/api/moderation/domains', { domain, reason }, [201]);
  }

  suspend(userId: string): Promise<unknown> {
    return this.call('PUT', `/api/moderation/users/${userId}/suspension`);
  }

  /** PUT /api/users/:id/follow without expecting success: the status (403 across a block). */
  async tryFollow(userId: string): Promise<number> {
    return (await this.raw('PUT', `/api/users/${userId}/follow`)).status;
  }

  /** A reply or quote without expecting success: the status (404 for a post hidden by a block). */
  async tryPost(body: { text: string; parentId?: string; quoteOfId?: string }): Promise<number> {
    return (await this.raw('POST', '/api/posts', { json: body })).status;
  }
}

/** Registers a person with a fresh client of their own. */
export async function person(baseUrl: string, username: string, name: string) {
  const client = new ApiClient(baseUrl);
  const user = await client.register({ email: `${username.toLowerCase()}@example.com`, username, name });
  return { client, user };
}
