import type { FastifyInstance } from 'fastify';
import { peopleByHandle } from '../federation/people.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { limitOf, route } from './mastodon.http.ts';
import { searchTextOf } from './mastodon.schemas.ts';
import { presentTag } from './tag.presenter.ts';

/** Search v2: people, posts and hashtags, each paged by `offset` as apps page them. */
export async function searchRoutes(app: FastifyInstance, { config, present }: MastodonContext) {
  const { search, hashtags } = app.services;

  route(app, e.search, async (request, _reply, { query }) => {
    const q = searchTextOf(query.q);
    const limit = limitOf(query.limit, 20, 40);
    const offset = query.offset === undefined ? 0 : Number(query.offset);
    const wants = (kind: string) => query.type === undefined || query.type === kind;
    // `@user@host`: that person (looked up at their server with resolve=true), and nothing else.
    const byHandle = wants('accounts') ? await peopleByHandle(app, request.viewer, q, query.resolve === 'true') : { q };
    const people =
      'people' in byHandle
        ? offset === 0
          ? byHandle.people
          : []
        : wants('accounts')
          ? (await search.people(request.viewer, { q: byHandle.q, limit, offset })).items
          : [];
    const found = wants('statuses') ? (await search.posts(request.viewer, { q, limit, offset })).items : [];
    const tags = wants('hashtags') ? (await search.hashtags({ q, limit, offset })).items.map((t) => t.tag) : [];
    const followed = await hashtags.followedAmong(request.viewer, tags);
    return {
      accounts: present.accounts(people),
      statuses: await present.statuses(request.viewer, found),
      hashtags: tags.map((tag) => presentTag(config.publicUrl, tag, request.viewer ? followed.has(tag) : undefined)),
    };
  });
}
