import { MUTE_DURATION, type Page, type User } from '@pipit/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../lib/errors.ts';
import type { UserId } from '../../lib/ids.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e, type MastodonEndpoint } from './mastodon.endpoints.ts';
import { keyedPage, limitOf, optionalId, pageLinks, route, userIdOf, userOf } from './mastodon.http.ts';
import { searchTextOf } from './mastodon.schemas.ts';
import { profileEdit, readProfileForm } from './profile.form.ts';

/** People lists answer at most this many at once. */
const MAX_PEOPLE = 80;
/** Familiar followers named per person (a profile shows a few avatars). */
const FAMILIAR_PER_PERSON = 5;

/** `?id[]=1&id[]=2` (or `?id=1`) as ids, at most 40; what is not an id is left out. */
function askedIds(request: FastifyRequest): number[] {
  const query = request.query as Record<string, unknown>;
  const raw = query['id[]'] ?? query.id;
  return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .map(optionalId)
    .filter((id): id is bigint => id !== null)
    .slice(0, 40)
    .map(Number);
}

/**
 * Accounts: a person, their posts and people lists, relationships and the actions that change them
 * (follow, block, mute and their undo), people search for mentions, and the member's own account.
 */
export async function accountsRoutes(app: FastifyInstance, { config, present }: MastodonContext) {
  const { users, posts, follows, safety, search } = app.services;

  route(app, e.verifyCredentials, async (request) => {
    const viewer = userOf(request);
    return present.credentialAccount(viewer, await users.current(viewer.userId));
  });

  route(app, e.account, async (request, _reply, { params }) =>
    present.account(await users.profile(request.viewer, userIdOf(params.id ?? ''))),
  );

  // By username, like the web's /api/users/by-username; with a token (an app's own will do).
  route(app, e.lookup, async (request) => {
    const acct = String((request.query as { acct?: unknown }).acct ?? '')
      .replace(/^@/, '')
      .split('@')[0];
    const missing = () => notFound('This user does not exist.');
    if (!acct || !/^[A-Za-z0-9_]{1,30}$/.test(acct)) throw missing();
    const user = await users.profileByUsername(request.viewer, acct);
    if (user.suspended) throw missing();
    return present.account(user);
  });

  route(app, e.accountStatuses, async (request, reply, { params, query }) => {
    // Pipit has no pinned posts.
    if (query.pinned === 'true') return [];
    const authorId = userIdOf(params.id ?? '');
    const found = await keyedPage(request, reply, config.publicUrl, {
      read: async (page) => {
        const list = await posts.listByUser(request.viewer, authorId, page);
        if (query.exclude_replies !== 'true') return list;
        return { ...list, items: list.items.filter((p) => p.parentId === null) };
      },
      keyOf: (p) => BigInt(p.entryId),
      cursorBelow: (id) => posts.cursorBelowEntry(id),
      limit: { fallback: 20, max: 40 },
    });
    return present.statuses(request.viewer, found);
  });

  /** A page of people as Accounts; the next page's `max_id` is the list's own cursor (apps pass it back as given). */
  async function people(
    request: FastifyRequest,
    reply: FastifyReply,
    list: (page: { cursor?: string; limit: number }) => Promise<Page<User>>,
  ) {
    const query = request.query as { max_id?: string; limit?: string };
    const page = await list({ cursor: query.max_id || undefined, limit: limitOf(query.limit, 40, MAX_PEOPLE) });
    const link = pageLinks(request, config.publicUrl, { next: page.nextCursor, prev: null });
    if (link) reply.header('Link', link);
    return present.accounts(page.items);
  }
  route(app, e.accountFollowers, (request, reply, { params }) =>
    people(request, reply, (page) => follows.followers(request.viewer, userIdOf(params.id ?? ''), page)),
  );
  route(app, e.accountFollowing, (request, reply, { params }) =>
    people(request, reply, (page) => follows.following(request.viewer, userIdOf(params.id ?? ''), page)),
  );
  route(app, e.blocks, (request, reply) => people(request, reply, (page) => safety.blocked(userOf(request), page)));
  route(app, e.mutes, (request, reply) => people(request, reply, (page) => safety.muted(userOf(request), page)));
  // The requests waiting on a locked account, newest first; authorize and reject answer the requester's Relationship.
  route(app, e.followRequests, (request, reply) =>
    people(request, reply, (page) => follows.requests(userOf(request), page)),
  );

  // Pipit has no featured tags: a profile's list is empty (404 for someone who does not exist).
  route(app, e.accountFeaturedTags, async (request, _reply, { params }) => {
    await users.profile(request.viewer, userIdOf(params.id ?? ''));
    return [];
  });

  // What apps ask as someone types a mention: people by the start of their username or name (the web's
  // people search), with a person's token.
  route(app, e.accountSearch, async (request) => {
    const query = request.query as { q?: string; limit?: string; offset?: string };
    const limit = limitOf(query.limit, 40, MAX_PEOPLE);
    const found = await search.people(request.viewer, { q: searchTextOf(query.q), limit });
    return present.accounts(found.items);
  });

  route(app, e.relationships, async (request) => {
    const viewer = userOf(request);
    // Unknown people are left out, as Mastodon does; the rest in the order asked.
    return present.relationships(viewer, await users.many(viewer, askedIds(request)));
  });

  // Who of the people the viewer follows also follow each person asked about (a profile's "followed by …").
  route(app, e.familiarFollowers, async (request) => {
    const viewer = userOf(request);
    const asked = askedIds(request);
    const familiar = await follows.familiarFollowers(viewer, asked, FAMILIAR_PER_PERSON);
    return asked.map((id) => ({ id: String(id), accounts: present.accounts(familiar.get(id) ?? []) }));
  });

  const act = (
    endpoint: MastodonEndpoint,
    run: (viewer: SessionUser, id: UserId, body: Record<string, unknown>) => Promise<User>,
  ) =>
    route(app, endpoint, async (request, _reply, { params, body }) => {
      const viewer = userOf(request);
      const [relationship] = await present.relationships(viewer, [
        await run(viewer, userIdOf(params.id ?? ''), body as Record<string, unknown>),
      ]);
      return relationship;
    });
  act(e.follow, (viewer, id) => follows.follow(viewer, id));
  act(e.unfollow, (viewer, id) => follows.unfollow(viewer, id));
  act(e.block, (viewer, id) => safety.block(viewer, id));
  act(e.unblock, (viewer, id) => safety.unblock(viewer, id));
  // Mastodon's duration is seconds, 0 for good; Pipit's limits apply (60 s to a year).
  act(e.mute, (viewer, id, body) => {
    const seconds = Number(body.duration ?? 0);
    const duration =
      Number.isFinite(seconds) && seconds > 0
        ? Math.min(Math.max(Math.round(seconds), MUTE_DURATION.min), MUTE_DURATION.max)
        : null;
    return safety.mute(viewer, id, duration);
  });
  act(e.unmute, (viewer, id) => safety.unmute(viewer, id));
  act(e.authorizeFollowRequest, (viewer, id) => follows.approve(viewer, id));
  act(e.rejectFollowRequest, (viewer, id) => follows.reject(viewer, id));

  // "Always expand posts with content warnings" (Settings) is reading:expand:spoilers.
  route(app, e.preferences, async (request) => ({
    'posting:default:visibility': 'public',
    'posting:default:sensitive': false,
    'posting:default:language': null,
    'reading:expand:media': 'default',
    'reading:expand:spoilers': (await users.current(userOf(request).userId)).expandSpoilers,
  }));
}

/**
 * PATCH /api/v1/accounts/update_credentials: the name, the bio and the pictures through the web's
 * own profile edit (the same checks, image processing and events). In the uploads scope: its
 * multipart form is read part by part (profile.form.ts).
 */
export async function accountUploadRoutes(app: FastifyInstance, { present }: MastodonContext) {
  const { users } = app.services;
  route(app, e.updateCredentials, async (request) => {
    const viewer = userOf(request);
    await users.edit(viewer.userId, profileEdit(await readProfileForm(request)));
    return present.credentialAccount(viewer, await users.current(viewer.userId));
  });
}
