import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { mailLanguage } from './password-reset.mail.ts';

/**
 * Forgotten passwords (errors: the contract's endpoint table). Asking for a link is limited per IP
 * and per email address (5 an hour each by default), and always answers 204; setting the password
 * is limited per IP.
 */
export const passwordResetRoutes: FastifyPluginAsync = async (app) => {
  const { passwordReset } = app.services;
  const perIp = app.limit('passwordResetIp', (request) => request.ip);
  const perEmail = app.limit('passwordResetEmail', (request) => {
    const email = (request.body as { email?: unknown } | undefined)?.email;
    return typeof email === 'string' ? `email:${email.trim().toLowerCase()}` : null;
  });

  route(app, e.requestPasswordReset, { preHandler: [perIp, perEmail] }, async (request) => {
    passwordReset.request(request.body.email, mailLanguage(request.headers['accept-language']));
    return null;
  });
  route(app, e.resetPassword, { preHandler: perIp }, async (request) => {
    await passwordReset.reset(request.body.token, request.body.password);
    return null;
  });
};
