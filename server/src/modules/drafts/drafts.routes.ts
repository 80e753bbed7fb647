import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { requireViewer } from '../../plugins/session.ts';
import { parseDraftId } from './drafts.service.ts';
import { parseScheduledId } from './scheduled.service.ts';

/** Drafts and scheduled posts: the member's own (errors: the contract's endpoint table). */
export const draftsRoutes: FastifyPluginAsync = async (app) => {
  const { drafts, scheduledPosts } = app.services;

  route(app, e.drafts, {}, async (request) => ({ items: await drafts.all(requireViewer(request)) }));
  route(app, e.createDraft, {}, async (request) => drafts.create(requireViewer(request), request.body.post));
  route(app, e.draft, {}, async (request) => drafts.get(requireViewer(request), parseDraftId(request.params.id)));
  route(app, e.updateDraft, {}, async (request) =>
    drafts.update(requireViewer(request), parseDraftId(request.params.id), request.body.post),
  );
  route(app, e.deleteDraft, {}, async (request) => {
    await drafts.remove(requireViewer(request), parseDraftId(request.params.id));
    return null;
  });

  route(app, e.scheduledPosts, {}, async (request) => ({ items: await scheduledPosts.all(requireViewer(request)) }));
  route(app, e.schedulePost, {}, async (request) =>
    scheduledPosts.schedule(requireViewer(request), request.body.post, new Date(request.body.scheduledAt)),
  );
  route(app, e.scheduledPost, {}, async (request) =>
    scheduledPosts.get(requireViewer(request), parseScheduledId(request.params.id)),
  );
  route(app, e.updateScheduledPost, {}, async (request) =>
    scheduledPosts.update(requireViewer(request), parseScheduledId(request.params.id), {
      post: request.body.post,
      scheduledAt: request.body.scheduledAt ? new Date(request.body.scheduledAt) : undefined,
    }),
  );
  route(app, e.cancelScheduledPost, {}, async (request) => {
    await scheduledPosts.cancel(requireViewer(request), parseScheduledId(request.params.id));
    return null;
  });
};
