import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { requireViewer } from '../../plugins/session.ts';

/** A hashtag's posts and the trending hashtags (for anyone); following hashtags (members). Errors: the endpoint table. */
export const hashtagsRoutes: FastifyPluginAsync = async (app) => {
  const { hashtags } = app.services;

  route(app, e.hashtagPosts, {}, async (request) => hashtags.posts(request.viewer, request.params.tag, request.query));
  route(app, e.trendingHashtags, {}, async () => hashtags.trendingNow());
  route(app, e.hashtag, {}, async (request) => hashtags.hashtag(requireViewer(request), request.params.tag));
  route(app, e.followHashtag, {}, async (request) => hashtags.follow(requireViewer(request), request.params.tag));
  route(app, e.unfollowHashtag, {}, async (request) => hashtags.unfollow(requireViewer(request), request.params.tag));
  route(app, e.followedHashtags, {}, async (request) => {
    const page = await hashtags.followed(requireViewer(request), request.query);
    return { items: page.items.map(({ tag, following }) => ({ tag, following })), nextCursor: page.nextCursor };
  });
};
