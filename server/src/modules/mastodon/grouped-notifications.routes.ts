import type { NotificationType } from '@pipit/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { notFound } from '../../lib/errors.ts';
import type { NotificationFilter } from '../notifications/notifications.groups.repository.ts';
import { GROUPABLE_TYPES, type NotificationGroup } from '../notifications/notifications.groups.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { limitOf, MASTODON_ID, need, pageLinks, userOf } from './mastodon.auth.ts';
import { TYPES, toAccounts, toStatuses } from './mastodon.statuses.ts';

type Query = Record<string, string | string[] | undefined>;

/** A query field apps send as `name[]=a&name[]=b` (or `name=a`), as a list; null when absent. */
function listOf(query: Query, name: string): string[] | null {
  const raw = query[`${name}[]`] ?? query[name];
  if (raw === undefined) return null;
  return (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).filter((v) => v !== '');
}

/** Pipit's kinds that a list of Mastodon's kinds names; names Pipit has no notifications of are left out (as Mastodon leaves out names it does not know). */
const kindsOf = (names: string[]) =>
  (Object.keys(TYPES) as NotificationType[]).filter((kind) => names.includes(TYPES[kind]));

/** Mastodon's 422 for a parameter it understood but refused: `{error, details}` (its ValidationError). */
class Unprocessable extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** A page key (max_id, since_id, min_id): a notification id, or absent (anything else is ignored, as on v1). */
const keyOf = (raw: string | string[] | undefined) =>
  typeof raw === 'string' && MASTODON_ID.test(raw) ? Number(raw) : null;

/** The filter of a request: types[], exclude_types[], account_id. */
function filterOf(query: Query): NotificationFilter {
  const only = listOf(query, 'types');
  const except = kindsOf(listOf(query, 'exclude_types') ?? []);
  const kinds = only === null ? null : kindsOf(only);
  const types =
    kinds === null && except.length === 0
      ? null
      : (kinds ?? (Object.keys(TYPES) as NotificationType[])).filter((kind) => !except.includes(kind));
  const account = query.account_id;
  if (account !== undefined && (typeof account !== 'string' || !MASTODON_ID.test(account)))
    throw new Unprocessable('account_id', 'account_id must be an account id');
  return { types, actorId: account === undefined ? null : Number(account) };
}

/** The kinds that may group: grouped_types[] among favourite, reblog, follow (all three when absent). */
function groupedOf(query: Query): NotificationType[] {
  const names = listOf(query, 'grouped_types');
  return names === null ? GROUPABLE_TYPES : GROUPABLE_TYPES.filter((kind) => names.includes(TYPES[kind]));
}

/**
 * Mastodon's grouped notifications (API v2, Mastodon 4.3): pages of NotificationGroups with the
 * accounts and statuses they name, each once; one group, its people, its dismissal; and the unread
 * counts. The grouping and who sees what are the notifications module's (notifications.groups.ts).
 */
export async function groupedNotificationsRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const { notifications } = app.services;
  const base = config.publicUrl;

  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof Unprocessable)) throw error;
    return reply.code(422).send({
      error: `Validation failed: ${error.message}`,
      details: { [error.field]: [{ error: 'ERR_INVALID', description: error.message }] },
    });
  });

  /** Mastodon's NotificationGroup; the page fields only on a page. */
  const toGroup = (g: NotificationGroup, paged: boolean) => ({
    group_key: g.key,
    notifications_count: g.count,
    type: TYPES[g.type],
    most_recent_notification_id: Number(g.newestId),
    ...(paged ? { page_min_id: g.oldestId, page_max_id: g.newestId, latest_page_notification_at: g.latestAt } : {}),
    sample_account_ids: g.sampleActorIds,
    ...(g.postId === null ? {} : { status_id: g.postId }),
  });

  /**
   * GroupedNotificationsResults: the groups, their people and their posts, each once. With
   * `partial_avatars`, each group's newest person is a whole Account and the others only what an
   * avatar needs (PartialAccountWithAvatar), as Mastodon does.
   */
  async function results(
    shown: NotificationGroup[],
    posts: Parameters<typeof toStatuses>[2],
    paged: boolean,
    partial: boolean,
  ) {
    const everyone = [...new Set(shown.flatMap((g) => g.sampleActorIds))];
    const whole = partial ? new Set(shown.flatMap((g) => g.sampleActorIds.slice(0, 1))) : new Set(everyone);
    const accounts = await toAccounts(
      app.db,
      base,
      everyone.map((id) => ({ id })),
    );
    return {
      accounts: accounts.filter((a) => whole.has(a.id)),
      ...(partial
        ? {
            partial_accounts: accounts
              .filter((a) => !whole.has(a.id))
              .map((a) => ({
                id: a.id,
                acct: a.acct,
                locked: a.locked,
                bot: a.bot,
                url: a.url,
                avatar: a.avatar,
                avatar_static: a.avatar_static,
                avatar_description: null,
              })),
          }
        : {}),
      statuses: await toStatuses(app.db, base, posts),
      notification_groups: shown.map((g) => toGroup(g, paged)),
    };
  }

  const read = { preHandler: need('read:notifications') };

  app.get('/api/v2/notifications', read, async (request: FastifyRequest, reply: FastifyReply) => {
    const viewer = userOf(request);
    const query = request.query as Query;
    const expand = query.expand_accounts ?? 'full';
    if (expand !== 'full' && expand !== 'partial_avatars')
      throw new Unprocessable('expand_accounts', "expand_accounts must be 'full' or 'partial_avatars'");
    // include_filtered: Pipit filters nothing into a separate inbox (the notifier writes no notification
    // it would hide), so there is nothing more to include.
    const page = await notifications.groups(viewer, {
      filter: filterOf(query),
      grouped: groupedOf(query),
      maxId: keyOf(query.max_id),
      sinceId: keyOf(query.since_id),
      minId: keyOf(query.min_id),
      limit: limitOf(query.limit as string | undefined, 40, 80),
    });
    const upward = keyOf(query.min_id) !== null;
    const link = pageLinks(request, base, {
      next: page.last !== null && (page.more || upward) ? page.last : null,
      prev: page.first,
    });
    if (link) reply.header('Link', link);
    return results(page.groups, page.posts, true, expand === 'partial_avatars');
  });

  /** Unread notifications (v1) or groups (v2) a filter takes, up to `limit` (100 unless asked, at most 1,000). */
  const unread = (viewer: SessionUser, query: Query, grouped: NotificationType[] | null) =>
    notifications.unreadOf(viewer, filterOf(query), limitOf(query.limit as string | undefined, 100, 1000), grouped);
  app.get('/api/v1/notifications/unread_count', read, async (request) => ({
    count: await unread(userOf(request), request.query as Query, null),
  }));
  app.get('/api/v2/notifications/unread_count', read, async (request) => {
    const query = request.query as Query;
    return { count: await unread(userOf(request), query, groupedOf(query)) };
  });

  const noSuchGroup = () => notFound('No such notification group.');

  app.get<{ Params: { group_key: string } }>('/api/v2/notifications/:group_key', read, async (request) => {
    const found = await notifications.group(userOf(request), request.params.group_key);
    if (!found) throw noSuchGroup();
    return results([found.group], found.posts, false, false);
  });

  app.get<{ Params: { group_key: string } }>(
    '/api/v2/notifications/:group_key/accounts',
    read,
    async (request, reply) => {
      const query = request.query as Query;
      const found = await notifications.groupMembers(userOf(request), request.params.group_key, {
        maxId: keyOf(query.max_id),
        // The previous page's min_id: the people above a notification (this list has no gap to fill).
        sinceId: keyOf(query.since_id) ?? keyOf(query.min_id),
        limit: limitOf(query.limit as string | undefined, 40, 80),
      });
      if (!found) throw noSuchGroup();
      const link = pageLinks(request, base, {
        next: found.more ? (found.items[found.items.length - 1]?.id ?? null) : null,
        prev: found.items[0]?.id ?? null,
      });
      if (link) reply.header('Link', link);
      return toAccounts(
        app.db,
        base,
        found.items.map((n) => ({ id: n.actorId })),
      );
    },
  );

  app.post<{ Params: { group_key: string } }>(
    '/api/v2/notifications/:group_key/dismiss',
    { preHandler: need('write:notifications') },
    async (request) => {
      if (!(await notifications.dismissGroup(userOf(request), request.params.group_key))) throw noSuchGroup();
      return {};
    },
  );
}
