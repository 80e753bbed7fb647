import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import { parseId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';
import { OAuthError } from './oauth.errors.ts';

const FIELDS: Record<string, string> = {
  invalid_client: 'client_id',
  invalid_scope: 'scope',
  unsupported_response_type: 'response_type',
};

/** An OAuth problem as the web's coded answer (the consent page shows it). */
async function orInvalid<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OAuthError) throw invalid(FIELDS[error.error] ?? 'request', error.description);
    throw error;
  }
}

/**
 * The product API's OAuth routes (cookie session, CSRF header): the consent page reads the request
 * and answers it; Settings lists and revokes the member's authorized apps.
 */
export const oauthConsentRoutes: FastifyPluginAsync = async (app) => {
  const { oauth } = app.services;

  route(app, e.authorization, {}, async (request) => {
    requireViewer(request);
    const { app: client, scopes, redirectUri } = await orInvalid(() => oauth.checkAuthorization(request.query));
    return { app: client, scopes, redirectUri };
  });
  // Its answer carries the code beside the app's own redirect URI and state: never compressed (BREACH).
  route(app, e.decideAuthorization, { compress: false }, async (request) => {
    const viewer = requireViewer(request);
    const { decision, ...query } = request.body;
    if (decision === 'deny') return { ...(await orInvalid(() => oauth.deny(query))), code: null };
    const { redirectTo, code } = await orInvalid(() => oauth.approve(viewer, query));
    return { redirectTo, code: redirectTo === null ? code : null };
  });
  route(app, e.authorizedApps, {}, async (request) => ({ items: await oauth.authorizedApps(requireViewer(request)) }));
  route(app, e.revokeApp, {}, async (request) => {
    const gone = await oauth.revokeApp(
      requireViewer(request),
      parseId(request.params.id, () => notFound('No such app.')),
    );
    if (!gone) throw notFound('No such app.');
    return null;
  });
};
