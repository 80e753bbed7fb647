import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { requireViewer } from '../../plugins/session.ts';

/**
 * Settings' two-factor sign-in (errors: the contract's endpoint table). Every call that checks a
 * password or a code counts against the account's sign-in limit, as a password change does.
 */
export const twoFactorRoutes: FastifyPluginAsync = async (app) => {
  const { twoFactor } = app.services;
  const limitChecks = app.limit('signInAccount', (request) =>
    request.viewer ? `password:${request.viewer.userId}` : null,
  );

  route(app, e.twoFactorStatus, {}, async (request) => twoFactor.status(requireViewer(request)));
  route(app, e.twoFactorSetup, { preHandler: limitChecks, compress: false }, async (request) =>
    twoFactor.setup(requireViewer(request), request.body.password, request.body.code),
  );
  route(app, e.twoFactorEnable, { preHandler: limitChecks, compress: false }, async (request) =>
    twoFactor.enable(requireViewer(request), request.body.code),
  );
  route(app, e.twoFactorDisable, { preHandler: limitChecks }, async (request) => {
    await twoFactor.disable(requireViewer(request), request.body.password, request.body.code);
    return null;
  });
};
