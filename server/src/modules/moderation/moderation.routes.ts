import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { notFound } from '../../lib/errors.ts';
import { parseId, parsePostId, parseUserId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';

/** Reports (any member) and moderation (moderators and admins; the service checks the role). */
export const moderationRoutes: FastifyPluginAsync = async (app) => {
  const { moderation, domainBlocks } = app.services;

  route(app, e.reportPost, {}, async (request) =>
    moderation.reportPost(requireViewer(request), parsePostId(request.params.id), request.body),
  );
  route(app, e.reportUser, {}, async (request) =>
    moderation.reportUser(requireViewer(request), parseUserId(request.params.id), request.body),
  );
  route(app, e.myReports, {}, async (request) => moderation.myReports(requireViewer(request), request.query));
  route(app, e.moderationReports, {}, async (request) => moderation.reports(requireViewer(request), request.query));
  route(app, e.resolveReport, {}, async (request) =>
    moderation.resolve(
      requireViewer(request),
      parseId(request.params.id, () => notFound('No such report.')),
      request.body,
    ),
  );
  route(app, e.suspend, {}, async (request) =>
    moderation.suspend(requireViewer(request), parseUserId(request.params.id)),
  );
  route(app, e.unsuspend, {}, async (request) =>
    moderation.unsuspend(requireViewer(request), parseUserId(request.params.id)),
  );
  route(app, e.setRole, {}, async (request) =>
    moderation.setRole(requireViewer(request), parseUserId(request.params.id), request.body),
  );
  route(app, e.moderationAccounts, {}, async (request) => moderation.accounts(requireViewer(request), request.query));
  route(app, e.auditLog, {}, async (request) => moderation.auditLog(requireViewer(request), request.query));
  route(app, e.domainBlocks, {}, async (request) => domainBlocks.list(requireViewer(request)));
  route(app, e.blockDomain, {}, async (request) => domainBlocks.block(requireViewer(request), request.body));
  route(app, e.unblockDomain, {}, async (request) => {
    await domainBlocks.unblock(requireViewer(request), request.params.domain);
    return null;
  });
};
