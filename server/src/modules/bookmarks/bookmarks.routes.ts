import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { parsePostId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';

/** The signed-in member's bookmarks (errors: the contract's endpoint table). */
export const bookmarksRoutes: FastifyPluginAsync = async (app) => {
  const { bookmarks } = app.services;

  route(app, e.bookmarkPost, {}, async (request) =>
    bookmarks.add(requireViewer(request), parsePostId(request.params.id)),
  );
  route(app, e.unbookmarkPost, {}, async (request) =>
    bookmarks.remove(requireViewer(request), parsePostId(request.params.id)),
  );
  route(app, e.bookmarks, {}, async (request) => bookmarks.list(requireViewer(request), request.query));
};
