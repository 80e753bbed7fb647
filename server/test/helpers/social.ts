/**
 * Helpers for the posts, timelines, follows and notifications suites: calls through HTTP, and a
 * direct seeder for data sets too large to post one by one.
 */
import type { Notification, Post, User } from '@pipit/contract';
import { expect } from 'vitest';
import type { DbHandle } from '../../src/db/client.ts';
import { posts } from '../../src/db/schema.ts';
import type { TestClient } from './app.ts';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** The rows of a raw `db.execute` (both drivers answer `{ rows }`). */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Posts through the API and expects 201. */
export async function createPost(client: TestClient, text: string, parentId?: string): Promise<Post> {
  const res = await client.post('/api/posts', parentId ? { text, parentId } : { text });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Post;
}

export async function getPost(client: TestClient, id: string): Promise<Post> {
  const res = await client.get(`/api/posts/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Post;
}

export async function like(client: TestClient, id: string): Promise<Post> {
  const res = await client.put(`/api/posts/${id}/like`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Post;
}

export async function follow(client: TestClient, userId: number | string): Promise<User> {
  const res = await client.put(`/api/users/${userId}/follow`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as User;
}

export async function notificationsOf(client: TestClient): Promise<Notification[]> {
  const res = await client.get('/api/notifications?limit=50');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Page<Notification>).items;
}

/** One page of a list call. */
export async function getPage<T>(client: TestClient, url: string, cursor?: string | null, limit?: number) {
  const params = new URLSearchParams();
  if (cursor) params.set('cursor', cursor);
  if (limit !== undefined) params.set('limit', String(limit));
  const query = params.toString();
  const res = await client.get(query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page<T>;
}

/** Follows nextCursor to the end and returns every item, in order. */
export async function getAll<T>(client: TestClient, url: string, limit: number): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 10_000; i++) {
    const page: Page<T> = await getPage<T>(client, url, cursor, limit);
    all.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) return all;
  }
  throw new Error('pagination did not end');
}

/** Inserts posts straight into the database (counters are not maintained: for timeline tests only). */
export async function seedPosts(
  handle: DbHandle,
  rows: { authorId: number; text?: string; createdAt?: Date; parentId?: number | null }[],
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500).map((r, j) => ({
      authorId: r.authorId,
      text: r.text ?? `post ${i + j}`,
      parentId: r.parentId ?? null,
      ...(r.createdAt ? { createdAt: r.createdAt } : {}),
    }));
    const inserted = await handle.db.insert(posts).values(chunk).returning({ id: posts.id });
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}
