import type { NotificationType, Post } from '@pipit/contract';
import type { FastifyInstance } from 'fastify';
import { invalid, notFound } from '../../lib/errors.ts';
import type { NotificationFilter } from '../notifications/notifications.groups.repository.ts';
import { GROUPABLE_TYPES, type NotificationGroup } from '../notifications/notifications.groups.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { limitOf, optionalId, pageLinks, route, userOf } from './mastodon.http.ts';
import { MASTODON_TYPES } from './notification.presenter.ts';

type Query = Record<string, string | string[] | undefined>;

/** A query field apps send as `name[]=a&name[]=b` (or `name=a`), as a list; null when absent. */
function listOf(query: Query, name: string): string[] | null {
  const raw = query[`${name}[]`] ?? query[name];
  if (raw === undefined) return null;
  return (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).filter((v) => v !== '');
}

const KINDS = Object.keys(MASTODON_TYPES) as NotificationType[];
/**
 * Pipit's kinds that a list of Mastodon's kinds names; names Pipit has no notifications of are left
 * out, as Mastodon leaves out names it does not know (apps send kinds of other servers).
 */
const kindsOf = (names: string[]) => KINDS.filter((kind) => names.includes(MASTODON_TYPES[kind]));

/** A page key (max_id, since_id, min_id): a notification id, or absent (anything else is ignored, as on v1). */
const keyOf = (raw: string | string[] | undefined) => {
  const id = optionalId(raw);
  return id === null ? null : Number(id);
};

/** The filter of a request: types[], exclude_types[], account_id. */
function filterOf(query: Query): NotificationFilter {
  const only = listOf(query, 'types');
  const except = kindsOf(listOf(query, 'exclude_types') ?? []);
  const kinds = only === null ? null : kindsOf(only);
  const types =
    kinds === null && except.length === 0 ? null : (kinds ?? KINDS).filter((kind) => !except.includes(kind));
  const account = query.account_id;
  if (account !== undefined && optionalId(account) === null) {
    throw invalid('account_id', 'account_id must be an account id');
  }
  return { types, actorId: account === undefined ? null : Number(account) };
}

/** The kinds that may group: grouped_types[] among favourite, reblog, follow (all three when absent). */
function groupedOf(query: Query): NotificationType[] {
  const names = listOf(query, 'grouped_types');
  return names === null ? GROUPABLE_TYPES : GROUPABLE_TYPES.filter((kind) => names.includes(MASTODON_TYPES[kind]));
}

/** Mastodon's NotificationGroup; the page fields only on a page. */
const toGroup = (g: NotificationGroup, paged: boolean) => ({
  group_key: g.key,
  notifications_count: g.count,
  type: MASTODON_TYPES[g.type],
  most_recent_notification_id: Number(g.newestId),
  ...(paged ? { page_min_id: g.oldestId, page_max_id: g.newestId, latest_page_notification_at: g.latestAt } : {}),
  sample_account_ids: g.sampleActorIds,
  ...(g.postId === null ? {} : { status_id: g.postId }),
});

/**
 * Mastodon's grouped notifications (API v2, Mastodon 4.3): pages of NotificationGroups with the
 * accounts and statuses they name, each once; one group, its people, its dismissal; and the unread
 * counts. The grouping and who sees what are the notifications module's (notifications.groups.ts).
 */
export async function groupedNotificationsRoutes(app: FastifyInstance, { config, present }: MastodonContext) {
  const { notifications, users } = app.services;

  /**
   * GroupedNotificationsResults: the groups, their people and their posts, each once. With
   * `partial_avatars`, each group's newest person is a whole Account and the others only what an
   * avatar needs (PartialAccountWithAvatar), as Mastodon does.
   */
  async function results(
    viewer: SessionUser,
    shown: NotificationGroup[],
    posts: Post[],
    paged: boolean,
    partial: boolean,
  ) {
    const everyone = [...new Set(shown.flatMap((g) => g.sampleActorIds))];
    const whole = partial ? new Set(shown.flatMap((g) => g.sampleActorIds.slice(0, 1))) : new Set(everyone);
    const accounts = present.accounts(await users.many(viewer, everyone.map(Number)));
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
      statuses: await present.statuses(viewer, posts),
      notification_groups: shown.map((g) => toGroup(g, paged)),
    };
  }

  route(app, e.groupedNotifications, async (request, reply) => {
    const viewer = userOf(request);
    const query = request.query as Query;
    const expand = query.expand_accounts ?? 'full';
    if (expand !== 'full' && expand !== 'partial_avatars') {
      throw invalid('expand_accounts', "expand_accounts must be 'full' or 'partial_avatars'");
    }
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
    const link = pageLinks(request, config.publicUrl, {
      next: page.last !== null && (page.more || upward) ? page.last : null,
      prev: page.first,
    });
    if (link) reply.header('Link', link);
    return results(viewer, page.groups, page.posts, true, expand === 'partial_avatars');
  });

  /** Unread notifications (v1) or groups (v2) a filter takes, up to `limit` (100 unless asked, at most 1,000). */
  const unread = (viewer: SessionUser, query: Query, grouped: NotificationType[] | null) =>
    notifications.unreadOf(viewer, filterOf(query), limitOf(query.limit as string | undefined, 100, 1000), grouped);
  route(app, e.unreadCountV1, async (request) => ({
    count: await unread(userOf(request), request.query as Query, null),
  }));
  route(app, e.unreadCount, async (request) => {
    const query = request.query as Query;
    return { count: await unread(userOf(request), query, groupedOf(query)) };
  });

  // Pipit filters no notification into a separate inbox (its notifier writes none it would hide): every kind
  // is accepted, nothing is waiting. Answered so apps do not read this path as a group named "policy".
  route(app, e.notificationPolicy, async () => ({
    for_not_following: 'accept',
    for_not_followers: 'accept',
    for_new_accounts: 'accept',
    for_private_mentions: 'accept',
    for_limited_accounts: 'accept',
    summary: { pending_requests_count: 0, pending_notifications_count: 0 },
  }));

  const noSuchGroup = () => notFound('No such notification group.');

  route(app, e.notificationGroup, async (request, _reply, { params }) => {
    const viewer = userOf(request);
    const found = await notifications.group(viewer, params.group_key ?? '');
    if (!found) throw noSuchGroup();
    return results(viewer, [found.group], found.posts, false, false);
  });

  route(app, e.notificationGroupAccounts, async (request, reply, { params }) => {
    const viewer = userOf(request);
    const query = request.query as Query;
    const found = await notifications.groupMembers(viewer, params.group_key ?? '', {
      maxId: keyOf(query.max_id),
      // The previous page's min_id: the people above a notification (this list has no gap to fill).
      sinceId: keyOf(query.since_id) ?? keyOf(query.min_id),
      limit: limitOf(query.limit as string | undefined, 40, 80),
    });
    if (!found) throw noSuchGroup();
    const link = pageLinks(request, config.publicUrl, {
      next: found.more ? (found.items[found.items.length - 1]?.id ?? null) : null,
      prev: found.items[0]?.id ?? null,
    });
    if (link) reply.header('Link', link);
    return present.accounts(
      await users.many(
        viewer,
        found.items.map((n) => Number(n.actorId)),
      ),
    );
  });

  route(app, e.dismissNotificationGroup, async (request, _reply, { params }) => {
    if (!(await notifications.dismissGroup(userOf(request), params.group_key ?? ''))) throw noSuchGroup();
    return {};
  });
}
