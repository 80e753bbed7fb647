import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { notFound } from '../../lib/errors.ts';
import { parseId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';

/**
 * Settings (errors: the contract's endpoint table): the password, and the member's signed-in
 * sessions. A password change counts against the sign-in limit of the account (it checks a password).
 */
export const settingsRoutes: FastifyPluginAsync = async (app) => {
  const { auth, sessions } = app.services;
  const limitPasswordChecks = app.limit('signInAccount', (request) =>
    request.viewer ? `password:${request.viewer.userId}` : null,
  );

  route(app, e.changePassword, { preHandler: limitPasswordChecks }, async (request) => {
    await auth.changePassword(requireViewer(request), request.body.currentPassword, request.body.newPassword);
    return null;
  });
  route(app, e.changeEmail, { preHandler: limitPasswordChecks }, async (request) =>
    auth.changeEmail(requireViewer(request), request.body.password, request.body.email),
  );
  route(app, e.sessions, {}, async (request) => sessions.list(requireViewer(request)));
  route(app, e.revokeSession, {}, async (request) => {
    const viewer = requireViewer(request);
    await sessions.revokeOne(
      viewer,
      parseId(request.params.id, () => notFound('No such session.')),
    );
    return null;
  });
  route(app, e.revokeOtherSessions, {}, async (request) => {
    await sessions.revokeOthers(requireViewer(request));
    return null;
  });
};
