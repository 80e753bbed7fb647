import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { preferredLanguage } from '../../lib/languages.ts';
import { requireViewer } from '../../plugins/session.ts';

/**
 * This browser's Web Push subscription (errors: the contract's endpoint table): Settings reads it with
 * the VAPID key, saves it (the browser's subscription and the kinds wanted) and removes it.
 */
export const pushRoutes: FastifyPluginAsync = async (app) => {
  const { push } = app.services;
  route(app, e.pushSubscription, {}, async (request) => push.state(requireViewer(request)));
  // The web app sends its chosen language as Accept-Language: the pushes' titles are written in it.
  route(app, e.savePushSubscription, {}, async (request) =>
    push.saveForSession(requireViewer(request), request.body, preferredLanguage(request.headers['accept-language'])),
  );
  route(app, e.deletePushSubscription, {}, async (request) => {
    await push.removeForSession(requireViewer(request));
    return null;
  });
};
