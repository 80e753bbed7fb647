/**
 * Random follows, posts (with hashtags, mentions, replies, reposts and quotes), likes, blocks, mutes,
 * muted words and a moderator's suspensions among four people, through HTTP; then every list each
 * person (and a visitor) can read is checked: no timeline, notification, search result, hashtag page
 * or suggestion ever shows them anything from someone they blocked or muted, or who blocked them, or
 * who is suspended, nor a post with one of their muted words. A quote is its author's own post: it is
 * visible iff its author (and text) is, and its quote part is shown iff the quoted post is visible.
 */
import type { Notification, Post, UserSummary } from '@pipit/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insertUser, resetDb, TestClient, useTestApp } from '../helpers/app.ts';
import { getAll } from '../helpers/social.ts';

const PEOPLE = 4;
const WORDS = ['kite', 'rain', 'tea', 'moss'] as const;

type Op =
  | { kind: 'post'; by: number; word: number; tag: boolean; mention: number | null }
  | { kind: 'reply' | 'repost' | 'quote' | 'like'; by: number; which: number; word: number }
  | { kind: 'follow' | 'unfollow' | 'block' | 'unblock' | 'mute' | 'unmute'; by: number; whom: number }
  | { kind: 'muteWord' | 'unmuteWord'; by: number; word: number }
  /** A moderator's act (`by` is not used). */
  | { kind: 'suspend' | 'unsuspend'; by: number; whom: number };

const person = fc.nat(PEOPLE - 1);
const word = fc.nat(WORDS.length - 1);
const which = fc.nat(30);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('post' as const),
      by: person,
      word,
      tag: fc.boolean(),
      mention: fc.option(person),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom('reply' as const, 'repost' as const, 'quote' as const, 'like' as const),
      by: person,
      which,
      word,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constantFrom('follow' as const, 'unfollow' as const), by: person, whom: person }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('block' as const, 'unblock' as const, 'mute' as const, 'unmute' as const),
      by: person,
      whom: person,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constantFrom('muteWord' as const, 'unmuteWord' as const), by: person, word }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('suspend' as const, 'unsuspend' as const), by: person, whom: person }),
  },
);

describe('what a block, a mute or a suspension hides, under random sequences', () => {
  const ctx = useTestApp();

  it('never shows anyone a post, notification or suggestion that a block, mute, muted word or suspension hides', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 30 }), async (ops) => {
        await resetDb(ctx.db);
        ctx.app.services.events.resync();
        const people: { id: string; username: string; client: TestClient }[] = [];
        for (let i = 0; i < PEOPLE; i++) {
          const row = await insertUser(ctx.db, { username: `p${i}` });
          people.push({ id: String(row.id), username: `p${i}`, client: await new TestClient(ctx).signInAs(row.id) });
        }
        const moderator = await new TestClient(ctx).signInAs(
          (await insertUser(ctx.db, { username: 'mod', role: 'moderator' })).id,
        );
        const visitor = new TestClient(ctx).withCsrf();
        const suspended = new Set<number>();
        // The model of the rules: who blocked whom, who muted whom, who muted which words.
        const blocks = new Set<string>();
        const mutes = new Set<string>();
        const words = new Map<string, { id: string; word: string }[]>();
        const posts: string[] = [];
        // Who wrote each post and what it says; and each quote with the post it quotes.
        const written = new Map<string, { by: number; text: string }>();
        const quotes: { id: string; quotedId: string }[] = [];
        const pair = (a: number, b: number) => `${a}>${b}`;
        let n = 0;

        for (const o of ops) {
          if (o.kind === 'suspend' || o.kind === 'unsuspend') {
            const them = people[o.whom]!;
            const url = `/api/moderation/users/${them.id}/suspension`;
            const res = o.kind === 'suspend' ? await moderator.put(url) : await moderator.delete(url);
            expect(res.statusCode, res.body).toBe(200);
            if (o.kind === 'suspend') suspended.add(o.whom);
            else if (suspended.delete(o.whom)) {
              // Their sessions ended with the suspension: they sign in again.
              them.client = await new TestClient(ctx).signInAs(Number(them.id));
            }
            continue;
          }
          // A suspended person cannot act at all.
          if (suspended.has(o.by)) continue;
          const me = people[o.by]!;
          const text = (w: number) => `${WORDS[w]} note ${n++}`;
          if (o.kind === 'post') {
            const mention = o.mention === null ? '' : ` @${people[o.mention]!.username}`;
            const res = await me.client.post('/api/posts', {
              text: `${text(o.word)}${o.tag ? ' #topic' : ''}${mention}`,
            });
            expect(res.statusCode, res.body).toBe(201);
            posts.push(res.json<Post>().id);
            written.set(res.json<Post>().id, { by: o.by, text: res.json<Post>().text });
          } else if (o.kind === 'reply' || o.kind === 'quote' || o.kind === 'repost' || o.kind === 'like') {
            if (posts.length === 0) continue;
            const target = posts[o.which % posts.length]!;
            const res =
              o.kind === 'reply'
                ? await me.client.post('/api/posts', { text: text(o.word), parentId: target })
                : o.kind === 'quote'
                  ? await me.client.post('/api/posts', { text: text(o.word), quoteOfId: target })
                  : await me.client.put(`/api/posts/${target}/${o.kind}`);
            // Refused across a block (404), never a 5xx.
            expect([200, 201, 404], res.body).toContain(res.statusCode);
            if (res.statusCode === 201) {
              const made = res.json<Post>();
              posts.push(made.id);
              written.set(made.id, { by: o.by, text: made.text });
              if (o.kind === 'quote') quotes.push({ id: made.id, quotedId: target });
            }
          } else if (o.kind === 'muteWord') {
            const res = await me.client.post('/api/muted-words', { phrase: WORDS[o.word] });
            expect(res.statusCode, res.body).toBe(201);
            const mine = words.get(me.id) ?? [];
            if (!mine.some((w) => w.word === WORDS[o.word]))
              mine.push({ id: res.json<{ id: string }>().id, word: WORDS[o.word]! });
            words.set(me.id, mine);
          } else if (o.kind === 'unmuteWord') {
            const mine = words.get(me.id) ?? [];
            const gone = mine.find((w) => w.word === WORDS[o.word]);
            if (!gone) continue;
            expect((await me.client.delete(`/api/muted-words/${gone.id}`)).statusCode).toBe(204);
            words.set(
              me.id,
              mine.filter((w) => w !== gone),
            );
          } else {
            // The kinds left are the relations (TypeScript does not narrow the union's unions of kinds).
            const { kind, whom } = o as Extract<
              Op,
              { kind: 'follow' | 'unfollow' | 'block' | 'unblock' | 'mute' | 'unmute' }
            >;
            if (o.by === whom) continue;
            const them = people[whom]!;
            const path = {
              follow: 'follow',
              unfollow: 'follow',
              block: 'block',
              unblock: 'block',
              mute: 'mute',
              unmute: 'mute',
            }[kind];
            const adds = kind === 'follow' || kind === 'block' || kind === 'mute';
            const url = `/api/users/${them.id}/${path}`;
            const res = adds ? await me.client.put(url, kind === 'mute' ? {} : undefined) : await me.client.delete(url);
            const acrossBlock = blocks.has(pair(o.by, whom)) || blocks.has(pair(whom, o.by)) || suspended.has(whom);
            expect(res.statusCode, res.body).toBe(kind === 'follow' && acrossBlock ? 403 : 200);
            if (kind === 'block') blocks.add(pair(o.by, whom));
            if (kind === 'unblock') blocks.delete(pair(o.by, whom));
            if (kind === 'mute') mutes.add(pair(o.by, whom));
            if (kind === 'unmute') mutes.delete(pair(o.by, whom));
          }
        }

        // Each person not suspended, then a visitor (v = PEOPLE): nobody has rules of their own.
        for (let v = 0; v <= PEOPLE; v++) {
          if (suspended.has(v)) continue;
          const viewer = people[v] ?? { id: '0', username: 'visitor', client: visitor };
          const hiddenPeople = new Set(
            people
              .map((p, i) => ({ p, i }))
              .filter(
                ({ i }) =>
                  suspended.has(i) ||
                  (i !== v && (blocks.has(pair(v, i)) || blocks.has(pair(i, v)) || mutes.has(pair(v, i)))),
              )
              .map(({ p }) => p.id),
          );
          const myWords = (words.get(viewer.id) ?? []).map((w) => w.word);
          const hasWord = (t: string) => myWords.some((w) => new RegExp(`(^|[^a-z0-9_])${w}($|[^a-z0-9_])`).test(t));
          // Everyone a post shows (its author, the reposter, the quoted post's author) and every text it shows.
          const problems = (post: Post, where: string): string[] => {
            const shown = [post, ...(post.quote?.state === 'shown' ? [post.quote.post] : [])];
            const found: string[] = [];
            for (const p of shown) {
              if (hiddenPeople.has(p.author.id)) found.push(`${where}: post ${post.id} by hidden ${p.author.username}`);
              if (p.author.id !== viewer.id && hasWord(p.text))
                found.push(`${where}: post ${post.id} has a muted word: ${p.text}`);
            }
            if (post.repostedBy && hiddenPeople.has(post.repostedBy.id))
              found.push(`${where}: reposted by hidden ${post.repostedBy.username}`);
            return found;
          };
          const found: string[] = [];
          const lists = [
            ...(viewer.client === visitor ? [] : ['/api/timeline/following']),
            '/api/timeline/everyone',
            '/api/hashtags/topic/posts',
            ...WORDS.map((w) => `/api/search/posts?q=${w}`),
          ];
          // The replies of a post one may not see answer as the post: absent (404).
          for (const id of posts.slice(0, 6)) {
            const page = await viewer.client.get(`/api/posts/${id}`);
            if (page.statusCode === 200) lists.push(`/api/posts/${id}/replies`);
            else expect((await viewer.client.get(`/api/posts/${id}/replies`)).statusCode).toBe(404);
          }
          for (const url of lists) {
            for (const post of await getAll<Post>(viewer.client, url, 50)) found.push(...problems(post, url));
          }
          const notes =
            viewer.client === visitor ? [] : await getAll<Notification>(viewer.client, '/api/notifications', 50);
          for (const note of notes) {
            if (hiddenPeople.has(note.actor.id)) found.push(`notification from hidden ${note.actor.username}`);
            if (note.post) found.push(...problems(note.post, 'notification'));
          }
          const suggestions = (await viewer.client.get('/api/users?limit=20')).json<UserSummary[]>();
          for (const u of suggestions) if (hiddenPeople.has(u.id)) found.push(`suggested hidden ${u.username}`);
          const searched = (await viewer.client.get('/api/search/people?q=p')).json<{ items: UserSummary[] }>();
          for (const u of searched.items)
            if (hiddenPeople.has(u.id)) found.push(`people search shows hidden ${u.username}`);
          // A blocked person's profile shows no posts, either way; a suspended person's, to nobody.
          for (const other of people) {
            const i = people.indexOf(other);
            if (!(blocks.has(pair(v, i)) || blocks.has(pair(i, v)) || suspended.has(i))) continue;
            const theirs = await getAll<Post>(viewer.client, `/api/users/${other.id}/posts`, 50);
            if (theirs.length > 0)
              found.push(`profile of ${other.username} shows ${theirs.length} posts across a block`);
          }
          // A quote is visible iff its own author (and text) is; its quote part is shown iff the quoted
          // post is visible to the viewer — under the list's rule: all rules on Everyone, blocks and
          // suspensions only on a post's page.
          const blockedOrSuspended = (i: number) =>
            suspended.has(i) || (v < PEOPLE && i !== v && (blocks.has(pair(v, i)) || blocks.has(pair(i, v))));
          const visibleAll = (p: { by: number; text: string }) =>
            !hiddenPeople.has(people[p.by]!.id) && (p.by === v || !hasWord(p.text));
          const everyone = new Map(
            (await getAll<Post>(viewer.client, '/api/timeline/everyone', 50)).map((p) => [p.id, p]),
          );
          for (const q of quotes) {
            const mine = written.get(q.id)!;
            const quoted = written.get(q.quotedId)!;
            const listed = everyone.get(q.id);
            if (Boolean(listed) !== visibleAll(mine))
              found.push(`Everyone ${listed ? 'shows' : 'leaves out'} quote ${q.id} by p${mine.by}`);
            if (listed && (listed.quote?.state === 'shown') !== visibleAll(quoted))
              found.push(`Everyone: quote ${q.id} of p${quoted.by}'s post is ${listed.quote?.state}`);
            const page = await viewer.client.get(`/api/posts/${q.id}`);
            if ((page.statusCode === 200) !== !blockedOrSuspended(mine.by))
              found.push(`post page of quote ${q.id} by p${mine.by} answers ${page.statusCode}`);
            if (page.statusCode === 200) {
              const state = page.json<Post>().quote?.state;
              if ((state === 'shown') !== !blockedOrSuspended(quoted.by))
                found.push(`post page: quote ${q.id} of p${quoted.by}'s post is ${state}`);
            }
          }
          expect(found, `viewer ${viewer.username} after ${JSON.stringify(ops)}`).toEqual([]);
        }
      }),
      { numRuns: Number(process.env.VISIBILITY_RUNS ?? 6), seed: 20261125, endOnFailure: true },
    );
  }, 600_000);
});
