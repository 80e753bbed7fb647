import { endpoints as e } from '@pipit/contract';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { notFound } from '../../lib/errors.ts';
import { parseId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';

/**
 * Passkeys (errors: the contract's endpoint table): Settings lists, adds (the password first, which
 * counts against the account's sign-in limit) and removes them; a visitor asks for a sign-in
 * challenge (counted against the address's sign-in limit). The sign-in itself is the credentials
 * callback of /api/auth with `passkey` (modules/auth/auth.routes.ts).
 */
export const passkeysRoutes: FastifyPluginAsync = async (app) => {
  const { passkeys } = app.services;
  const limitPasswordChecks = app.limit('signInAccount', (request) =>
    request.viewer ? `password:${request.viewer.userId}` : null,
  );
  const limitByIp = app.limit('signInIp', (request) => request.ip);

  route(app, e.passkeys, {}, async (request) => passkeys.list(requireViewer(request)));
  // The options go to the browser library whole (the contract keeps their every field).
  route(app, e.passkeyOptions, { preHandler: limitPasswordChecks }, async (request) => ({
    ...(await passkeys.registrationOptions(requireViewer(request), request.body.password)),
  }));
  route(app, e.addPasskey, {}, async (request) =>
    passkeys.add(
      requireViewer(request),
      request.body.name,
      request.body.response as unknown as RegistrationResponseJSON,
    ),
  );
  route(app, e.removePasskey, {}, async (request) => {
    await passkeys.remove(
      requireViewer(request),
      parseId(request.params.id, () => notFound('No such passkey.')),
    );
    return null;
  });
  route(app, e.passkeySignInOptions, { preHandler: limitByIp }, async () => ({
    ...(await passkeys.signInOptions()),
  }));
};
