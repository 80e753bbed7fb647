import type { FastifyInstance } from 'fastify';
import { AppError, invalid } from '../../lib/errors.ts';
import { type ListId, parseListId } from '../lists/lists.service.ts';
import { toMastodonList } from './list.presenter.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { keyedPage, limitOf, pageLinks, route, userIdOf, userOf } from './mastodon.http.ts';
import { formFields, listAccountsBody } from './mastodon.schemas.ts';

/** A list's accounts per page (Mastodon's default and maximum; `limit=0`: all of them). */
const ACCOUNTS = { fallback: 40, max: 80 };
const STATUSES = { fallback: 20, max: 40 };

/**
 * Mastodon's lists over the lists service (modules/lists): the rules (only people one follows, the
 * limits, someone else's list as absent: 404) are the service's. Its refusals of a member or a limit
 * are Mastodon's validation errors (422), as Mastodon answers them.
 */
export async function listsRoutes(app: FastifyInstance, { config, present }: MastodonContext) {
  const { lists, posts } = app.services;
  const listOf = (raw: string | undefined) => parseListId(raw ?? '');

  /** NOT_FOLLOWING and LIMIT_REACHED as Mastodon's 422, naming the field. */
  const validation = async <T>(field: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AppError && (error.code === 'NOT_FOLLOWING' || error.code === 'LIMIT_REACHED')) {
        throw invalid(field, error.message);
      }
      throw error;
    }
  };

  route(app, e.lists, async (request) => (await lists.all(userOf(request))).map(toMastodonList));
  route(app, e.list, async (request, _reply, { params }) =>
    toMastodonList(await lists.get(userOf(request), listOf(params.id))),
  );
  route(app, e.createList, async (request, _reply, { body }) =>
    toMastodonList(
      await validation('base', () =>
        lists.create(userOf(request), {
          title: body.title,
          repliesPolicy: body.replies_policy,
          exclusive: body.exclusive,
        }),
      ),
    ),
  );
  route(app, e.updateList, async (request, _reply, { params, body }) => {
    const viewer = userOf(request);
    const id = listOf(params.id);
    const changes = { title: body.title, repliesPolicy: body.replies_policy, exclusive: body.exclusive };
    // Nothing to change (an app saving the form as it was): the list as it is.
    if (Object.values(changes).every((v) => v === undefined)) return toMastodonList(await lists.get(viewer, id));
    return toMastodonList(await lists.update(viewer, id, changes));
  });
  route(app, e.deleteList, async (request, _reply, { params }) => {
    await lists.remove(userOf(request), listOf(params.id));
    return {};
  });

  /** The list's accounts, last added first; `limit=0` answers them all (Mastodon's "without pagination"). */
  route(app, e.listAccounts, async (request, reply, { params }) => {
    const viewer = userOf(request);
    const id = listOf(params.id);
    const query = request.query as { max_id?: string; limit?: string };
    const all = query.limit === '0';
    const limit = all ? 500 : limitOf(query.limit, ACCOUNTS.fallback, ACCOUNTS.max);
    // max_id is the page's own cursor as the Link header gave it, or an account id (Mastodon's).
    let cursor = query.max_id || undefined;
    if (cursor && /^\d+$/.test(cursor)) {
      const below = await lists.cursorBelowMember(viewer, id, Number(cursor));
      if (below === null) return [];
      cursor = below;
    }
    const page = await lists.members(viewer, id, { cursor, limit });
    const link = all ? null : pageLinks(request, config.publicUrl, { next: page.nextCursor, prev: null });
    if (link) reply.header('Link', link);
    return present.accounts(page.items);
  });

  const accountIds = (raw: unknown) => {
    const parsed = listAccountsBody.safeParse(formFields(raw));
    if (!parsed.success) {
      throw invalid('account_ids', `account_ids: ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
    }
    return parsed.data.account_ids.map((id) => userIdOf(id));
  };

  route(app, e.addListAccounts, async (request, _reply, { params, body }) => {
    await validation('account_ids', () =>
      lists.addMembers(
        userOf(request),
        listOf(params.id),
        body.account_ids.map((id) => userIdOf(id)),
      ),
    );
    return {};
  });
  route(app, e.removeListAccounts, async (request, _reply, { params }) => {
    const viewer = userOf(request);
    const id: ListId = listOf(params.id);
    const body = formFields(request.body);
    await lists.removeMembers(viewer, id, accountIds(Object.keys(body).length > 0 ? body : request.query));
    return {};
  });

  route(app, e.listTimeline, async (request, reply, { params }) => {
    const viewer = userOf(request);
    const id = listOf(params.list_id);
    const found = await keyedPage(request, reply, config.publicUrl, {
      read: (page) => lists.timeline(viewer, id, page),
      keyOf: (p) => BigInt(p.entryId),
      cursorBelow: (entry) => posts.cursorBelowEntry(entry),
      limit: STATUSES,
    });
    return present.statuses(viewer, found);
  });

  /** Of the viewer's lists, those the account is on. */
  route(app, e.accountLists, async (request, _reply, { params }) =>
    (await lists.listsWith(userOf(request), userIdOf(params.id ?? ''))).map(toMastodonList),
  );
}
