import { hashtagOf } from '@pipit/contract';
import type { FastifyInstance } from 'fastify';
import { AppError, notFound } from '../../lib/errors.ts';
import { Refused } from '../oauth/bearer.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { keyedPage, route, userOf } from './mastodon.http.ts';
import { presentTag } from './tag.presenter.ts';

/** Followed tags at most per page, and by default (Mastodon's). */
const FOLLOWED_TAGS_PAGE = { fallback: 100, max: 200 };

/** A tag's name as written in the path, in its stored form; a name that is no hashtag is not found, as Mastodon answers it. */
function tagNameOf(raw: string | undefined): string {
  const name = hashtagOf(raw ?? '');
  if (name === null) throw notFound('Record not found');
  return name;
}

/** Hashtags: one tag, following and unfollowing it, the followed ones (the same service as the web's). */
export async function tagsRoutes(app: FastifyInstance, { config }: MastodonContext) {
  const { hashtags } = app.services;

  route(app, e.tag, async (request, _reply, { params }) => {
    const name = tagNameOf(params.name);
    if (!request.viewer) return presentTag(config.publicUrl, name);
    return presentTag(config.publicUrl, name, (await hashtags.hashtag(request.viewer, name)).following);
  });

  route(app, e.followTag, async (request, _reply, { params }) => {
    const name = tagNameOf(params.name);
    try {
      await hashtags.follow(userOf(request), name);
    } catch (error) {
      // Mastodon's refusals of a follow are validation errors (422).
      if (error instanceof AppError && error.code === 'LIMIT_REACHED') throw new Refused(422, error.message);
      throw error;
    }
    return presentTag(config.publicUrl, name, true);
  });

  // Unfollowing a tag one does not follow answers the tag, as Mastodon does.
  route(app, e.unfollowTag, async (request, _reply, { params }) => {
    const name = tagNameOf(params.name);
    await hashtags.unfollow(userOf(request), name);
    return presentTag(config.publicUrl, name, false);
  });

  route(app, e.followedTags, async (request, reply) => {
    const viewer = userOf(request);
    // Pages keyed by the follow's own number (Mastodon's TagFollow id), newest follow first.
    const found = await keyedPage(request, reply, config.publicUrl, {
      read: (page) => hashtags.followed(viewer, page),
      keyOf: (tag) => BigInt(tag.followId),
      cursorBelow: (id) => hashtags.followedCursorBelow(viewer, id),
      limit: FOLLOWED_TAGS_PAGE,
    });
    return found.map((tag) => presentTag(config.publicUrl, tag.tag, true));
  });
}
