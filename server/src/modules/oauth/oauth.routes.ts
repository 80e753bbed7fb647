import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { allowAnyOrigin } from '../../lib/cors.ts';
import { badToken, bearerToken, needsPerson, noToken, outOfScope } from './bearer.ts';
import { OAuthError, oauthErrors } from './oauth.errors.ts';
import { grants, KNOWN_SCOPES } from './scopes.ts';

/** A form or JSON field that may come as a string (or, for lists, several). */
const text = z.string().max(2000).optional();
const list = z.union([z.string().max(4000), z.array(z.string().max(2000)).max(10)]).optional();

const appBody = z.object({
  client_name: z.string().trim().min(1, 'client_name is required').max(200, 'client_name is at most 200 characters'),
  redirect_uris: list,
  redirect_uri: text,
  scopes: text,
  website: z.string().max(2000).nullable().optional(),
});

const tokenBody = z.object({
  grant_type: text,
  client_id: text,
  client_secret: text,
  code: text,
  redirect_uri: text,
  code_verifier: text,
  scope: text,
});

const revokeBody = z.object({ client_id: text, client_secret: text, token: text });

/** RFC 6749 §2.3.1: client credentials may come as HTTP Basic instead of in the body. */
function basicCredentials(request: FastifyRequest): { id: string; secret: string } | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const at = decoded.indexOf(':');
  if (at < 0) return null;
  return {
    id: decodeURIComponent(decoded.slice(0, at)),
    secret: decodeURIComponent(decoded.slice(at + 1)),
  };
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new OAuthError('invalid_request', parsed.error.issues[0]?.message ?? 'Bad request.');
  return parsed.data;
}

/**
 * The OAuth 2 endpoints Mastodon apps call: POST /api/v1/apps, POST /oauth/token, POST /oauth/revoke
 * and the server's metadata (RFC 8414). The consent page is the web app's (/oauth/authorize), which
 * calls the product API's oauth routes (oauth.consent.routes.ts). Bodies are JSON or forms.
 */
export async function oauthRoutes(app: FastifyInstance, { config }: { config: Config }) {
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  // Apps send these as JSON, as a form or as multipart form fields (masto.js's default): fields only.
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fields: 20, fieldSize: 4096, files: 0, parts: 20 },
  });
  // Mastodon web apps on other origins (Elk, Phanpy) sign in from the browser (/api/v1/apps's
  // preflight is the client API's: /api/v1/*).
  allowAnyOrigin(app, ['/oauth/token', '/oauth/revoke', '/oauth/userinfo', '/.well-known/oauth-authorization-server']);
  oauthErrors(app);
  const { oauth } = app.services;
  // Guessing secrets or codes is bounded like guessing passwords: per address.
  const limited = app.limit('signInIp', (request) => request.ip);

  app.post('/api/v1/apps', { preHandler: limited }, async (request) => {
    const body = parse(appBody, request.body);
    const raw = body.redirect_uris ?? body.redirect_uri ?? '';
    const redirectUris = (Array.isArray(raw) ? raw : raw.split(/\s+/)).map((u) => u.trim()).filter(Boolean);
    const { row, clientSecret } = await oauth.registerApp({
      name: body.client_name,
      redirectUris,
      scopes: body.scopes,
      website: body.website?.trim() || null,
    });
    return {
      id: String(row.id),
      name: row.name,
      website: row.website,
      scopes: row.scopes.split(' '),
      redirect_uri: row.redirectUris.join('\n'),
      redirect_uris: row.redirectUris,
      vapid_key: '',
      client_id: row.clientId,
      client_secret: clientSecret,
      client_secret_expires_at: 0,
    };
  });

  app.post('/oauth/token', { preHandler: limited }, async (request, reply) => {
    const body = parse(tokenBody, request.body);
    const basic = basicCredentials(request);
    const token = await oauth.token({
      grantType: body.grant_type,
      clientId: basic?.id ?? body.client_id,
      clientSecret: basic?.secret ?? body.client_secret,
      code: body.code,
      redirectUri: body.redirect_uri,
      codeVerifier: body.code_verifier,
      scope: body.scope,
    });
    // RFC 6749 §5.1: never cached.
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    return token;
  });

  app.post('/oauth/revoke', { preHandler: limited }, async (request) => {
    const body = parse(revokeBody, request.body);
    const basic = basicCredentials(request);
    await oauth.revoke({
      clientId: basic?.id ?? body.client_id,
      clientSecret: basic?.secret ?? body.client_secret,
      token: body.token,
    });
    return {};
  });

  /**
   * OpenID Connect's userinfo (Mastodon 4.4): who the bearer token speaks for, with the `profile`
   * scope. Apps use it to learn the account right after signing in.
   */
  const userinfo = async (request: FastifyRequest) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw noToken();
    const grant = await oauth.resolve(token);
    if (!grant) throw badToken();
    if (!grants(grant.scopes, 'profile')) throw outOfScope('profile');
    if (!grant.viewer) throw needsPerson();
    const { userId, name, username, profileImage } = grant.viewer;
    const profile = `${config.publicUrl}/users/${userId}`;
    return {
      iss: `${config.publicUrl}/`,
      sub: profile,
      name,
      preferred_username: username,
      profile,
      picture: `${config.publicUrl}${profileImage ?? '/images/placeholder.png'}`,
    };
  };
  app.get('/oauth/userinfo', userinfo);
  app.post('/oauth/userinfo', userinfo);

  app.get('/.well-known/oauth-authorization-server', async () => ({
    issuer: `${config.publicUrl}/`,
    service_documentation: 'https://docs.joinmastodon.org/',
    authorization_endpoint: `${config.publicUrl}/oauth/authorize`,
    token_endpoint: `${config.publicUrl}/oauth/token`,
    app_registration_endpoint: `${config.publicUrl}/api/v1/apps`,
    revocation_endpoint: `${config.publicUrl}/oauth/revoke`,
    userinfo_endpoint: `${config.publicUrl}/oauth/userinfo`,
    scopes_supported: [...KNOWN_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
  }));
}
