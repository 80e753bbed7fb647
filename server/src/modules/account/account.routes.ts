import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { requireViewer } from '../../plugins/session.ts';

/**
 * The account as a whole (errors: the contract's endpoint table). Deleting checks the password, so
 * it counts against the account's sign-in limit; the export is a download (application/zip).
 */
export const accountRoutes: FastifyPluginAsync = async (app) => {
  const { account } = app.services;
  const limitPasswordChecks = app.limit('signInAccount', (request) =>
    request.viewer ? `password:${request.viewer.userId}` : null,
  );

  route(app, e.deleteAccount, { preHandler: limitPasswordChecks }, async (request) => {
    await account.delete(requireViewer(request), request.body.password);
    return null;
  });

  app.route({
    method: e.exportAccount.method,
    url: e.exportAccount.path,
    handler: async (request, reply) => {
      const viewer = requireViewer(request);
      const zip = await account.export(viewer);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', `attachment; filename="pipit-${viewer.username}-${day}.zip"`)
        .header('Cache-Control', 'private, no-store')
        .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
    },
  });
};
