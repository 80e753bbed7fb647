import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import {
  baseCookieOptions,
  cookieNames,
  DEVICE_COOKIE_MAX_AGE_S,
  knownDevice,
  newCsrfCookie,
  newDeviceCookie,
  safeEqual,
  verifyCsrfCookie,
} from '../../lib/auth-cookies.ts';
import { AppError } from '../../lib/errors.ts';
import {
  actionOf,
  field,
  HTML_ACTIONS,
  INLINE_ERRORS,
  INVALID_CALLBACK_URL,
  isValidCallbackUrl,
  PROVIDER_ID,
  SPA_PAGE,
  sanitizeCallbackUrl,
  signInEmail,
  unsupported,
} from './auth.protocol.ts';

const PREFIX = '/api/auth';

/** Session and CSRF answers must never be cached (NextAuth sends these three on GET session and csrf). */
const NO_CACHE = { 'cache-control': 'private, no-cache, no-store', pragma: 'no-cache', expires: '0' };

/** What NextAuth's init computes for every action before it runs. */
interface AuthRequestState {
  csrfToken: string;
  /** A POST whose body carries the token of a valid CSRF cookie. */
  csrfVerified: boolean;
  /** The sanitized callbackUrl (body, then query, then cookie, else the origin). */
  callbackUrl: string;
}

/**
 * The NextAuth v4 protocol under /api/auth (docs/spec/auth-protocol.md), with database sessions:
 * the cookie holds an opaque token, the sessions table its hash. Answers are protocol-shaped
 * (`{}`, `{url}`, text), except rate limiting and unexpected 5xx, which use the app's error shape.
 */
export const authRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  // Only this plugin's routes parse form bodies; the rest of /api stays JSON-only (415).
  await app.register(formbody);

  const { auth: service, sessions } = app.services;
  const names = cookieNames(config);
  // Values are URI-encoded like NextAuth's (`token|hash` goes out as `token%7Chash`).
  const cookieOptions = { ...baseCookieOptions(config), encode: encodeURIComponent };
  const origin = new URL(config.publicUrl).origin;
  const base = `${config.publicUrl}${PREFIX}`;

  const found = (reply: FastifyReply, url: string) => reply.code(302).header('location', url).send();
  const text = (reply: FastifyReply, status: number, message: string) =>
    reply.code(status).type('text/plain; charset=utf-8').send(message);
  const clearCookie = (reply: FastifyReply, name: string) => reply.setCookie(name, '', { ...cookieOptions, maxAge: 0 });

  /** NextAuth's Next.js adapter: a post with json=true gets `{url}` and the status, anything else a 302. */
  const redirect = (reply: FastifyReply, body: unknown, url: string, status = 200) =>
    field(body, 'json') === 'true' ? reply.code(status).send({ url }) : found(reply, url);

  // NextAuth's assertConfig: a callbackUrl in the query or cookie that is neither http(s) nor a path
  // fails every action before it runs.
  app.addHook('onRequest', async (request, reply) => {
    const fromQuery = field(request.query, 'callbackUrl');
    const fromCookie = request.cookies[names.callbackUrl];
    const badQuery = !!fromQuery && !isValidCallbackUrl(fromQuery, base);
    const badCookie = !!fromCookie && !isValidCallbackUrl(fromCookie, base);
    if (!badQuery && !badCookie) return;
    request.log.warn({ code: 'INVALID_CALLBACK_URL_ERROR' }, 'invalid callback URL'); // client-caused
    // The cookie is HttpOnly: if the server did not drop a bad one, every auth call would keep failing.
    if (badCookie) clearCookie(reply, names.callbackUrl);
    if (request.method === 'GET' && HTML_ACTIONS.has(actionOf(request.url))) {
      return found(reply, `${SPA_PAGE}?error=Configuration`);
    }
    // NextAuth answers 500 with its configuration message; the input is the client's, so: a coded 400.
    return reply.code(400).send(INVALID_CALLBACK_URL);
  });

  /** Reuses a valid CSRF cookie or issues one, and settles the callback URL (cookie re-set when it changes). */
  function init(request: FastifyRequest, reply: FastifyReply, body?: unknown): AuthRequestState {
    const cookieToken = verifyCsrfCookie(request.cookies[names.csrf], config.authSecret);
    let csrfToken = cookieToken;
    if (!csrfToken) {
      const fresh = newCsrfCookie(config.authSecret);
      reply.setCookie(names.csrf, fresh.value, cookieOptions);
      csrfToken = fresh.token;
    }
    const posted = field(body, 'csrfToken');
    const csrfVerified =
      request.method === 'POST' && cookieToken !== null && posted !== undefined && safeEqual(posted, cookieToken);

    const fromCookie = request.cookies[names.callbackUrl];
    const wanted = field(body, 'callbackUrl') ?? field(request.query, 'callbackUrl');
    const raw = wanted || fromCookie;
    const callbackUrl = raw ? sanitizeCallbackUrl(raw, origin) : origin;
    if (callbackUrl !== fromCookie) reply.setCookie(names.callbackUrl, callbackUrl, cookieOptions);
    return { csrfToken, csrfVerified, callbackUrl };
  }

  /**
   * The session read from the database by the session plugin for this very request, so it reflects
   * the latest profile. Renews it (at most daily) and re-sets the cookie; drops an unknown or expired one.
   */
  async function answerSession(request: FastifyRequest, reply: FastifyReply) {
    const { viewer, sessionToken } = request;
    if (viewer && sessionToken) {
      const expires = await sessions.touch(viewer);
      reply.setCookie(names.session, sessionToken, { ...cookieOptions, expires });
      return reply.send({
        user: { name: viewer.name, email: viewer.email, image: viewer.profileImage ?? null },
        expires: expires.toISOString(),
      });
    }
    if (sessionToken) {
      await sessions.revoke(sessionToken); // deletes the row when it had merely expired
      clearCookie(reply, names.session);
    }
    return reply.send({});
  }

  // Sign-in limits per IP and per account. The account's allowance is shared by the browsers it
  // never signed in from; a known device (its cookie, set at each successful sign-in) has its own, so
  // attempts from elsewhere — any number of addresses — cannot lock the owner out of their browser.
  // The 429 keeps the app's {code, message} and adds the protocol's `url`, so next-auth's signIn()
  // reports an error instead of failing on `new URL(undefined)`.
  const limitByIp = app.limit('signInIp', (request) => request.ip);
  const limitByAccount = app.limit('signInAccount', (request) => {
    const email = signInEmail(request.body);
    if (!email) return null; // no email: the IP limit only
    const device = knownDevice(request.cookies[names.device], email, config.authSecret);
    return device ? `${email}|device:${device}` : email;
  });
  async function limitSignIn(request: FastifyRequest, reply: FastifyReply) {
    try {
      await limitByIp.call(app, request, reply);
      await limitByAccount.call(app, request, reply);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'RATE_LIMITED') throw error;
      return reply
        .code(error.statusCode)
        .send({ code: error.code, message: error.message, url: `${base}/error?error=RateLimited` });
    }
  }

  app.get(`${PREFIX}/csrf`, async (request, reply) => {
    const { csrfToken } = init(request, reply);
    return reply.headers(NO_CACHE).send({ csrfToken });
  });

  // No init: NextAuth answers providers before attaching any cookie.
  // The same for everyone, cookie or not: the one public answer under /api/auth.
  app.get(`${PREFIX}/providers`, async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return {
      [PROVIDER_ID]: {
        id: PROVIDER_ID,
        name: 'Credentials',
        type: 'credentials',
        signinUrl: `${base}/signin/${PROVIDER_ID}`,
        callbackUrl: `${base}/callback/${PROVIDER_ID}`,
      },
    };
  });

  app.get(`${PREFIX}/session`, async (request, reply) => {
    init(request, reply);
    reply.headers(NO_CACHE);
    return answerSession(request, reply);
  });

  // useSession().update(data): `data` is ignored on purpose; profile changes go through PATCH /api/edit
  // and this answer re-reads them. A client must not be able to write its own session.
  app.post(`${PREFIX}/session`, async (request, reply) => {
    const { csrfVerified } = init(request, reply, request.body);
    if (!csrfVerified) return reply.code(400).send({});
    return answerSession(request, reply);
  });

  app.post(`${PREFIX}/callback/:provider`, { preHandler: limitSignIn }, async (request, reply) => {
    const { provider } = request.params as { provider: string };
    if (provider !== PROVIDER_ID) return text(reply, 400, unsupported('POST'));
    const body = request.body;
    const { csrfVerified, callbackUrl } = init(request, reply, body);
    if (!csrfVerified) return redirect(reply, body, `${base}/signin?csrf=true`);
    const userId = await service.verifyCredentials(field(body, 'email'), field(body, 'password'));
    if (userId === null) {
      const query = new URLSearchParams({ error: 'CredentialsSignin', provider: PROVIDER_ID });
      return redirect(reply, body, `${base}/error?${query}`, 401);
    }
    const { token, expiresAt } = await service.startSession(userId, request.sessionToken);
    reply.setCookie(names.session, token, { ...cookieOptions, expires: expiresAt });
    reply.setCookie(names.device, newDeviceCookie(signInEmail(body)!, config.authSecret), {
      ...cookieOptions,
      maxAge: DEVICE_COOKIE_MAX_AGE_S,
    });
    return redirect(reply, body, callbackUrl);
  });

  app.get(`${PREFIX}/callback/:provider`, async (request, reply) => {
    const { provider } = request.params as { provider: string };
    if (provider !== PROVIDER_ID) return text(reply, 400, unsupported('GET'));
    init(request, reply);
    // NextAuth answers 500; a GET here is the client's mistake, so 400 (the client never sends it).
    return text(reply, 400, 'Error: Callback for provider type credentials not supported');
  });

  // The client posts here only for oauth/email providers; for credentials NextAuth points back to its page.
  const postSignIn = async (request: FastifyRequest, reply: FastifyReply) => {
    const { provider } = request.params as { provider?: string };
    const { csrfVerified } = init(request, reply, request.body);
    if (!csrfVerified || provider !== PROVIDER_ID) return redirect(reply, request.body, `${base}/signin?csrf=true`);
    return redirect(reply, request.body, `${base}/signin`);
  };
  app.post(`${PREFIX}/signin`, postSignIn);
  app.post(`${PREFIX}/signin/:provider`, postSignIn);

  app.post(`${PREFIX}/signout`, async (request, reply) => {
    const body = request.body;
    const { csrfVerified, callbackUrl } = init(request, reply, body);
    if (!csrfVerified) return redirect(reply, body, `${base}/signout?csrf=true`);
    if (request.sessionToken) {
      await sessions.revoke(request.sessionToken);
      clearCookie(reply, names.session);
    }
    return redirect(reply, body, callbackUrl);
  });

  // The client's logger beacons every client-side error here; no CSRF, no cookies, empty 200.
  app.post(`${PREFIX}/_log`, async (request, reply) => {
    request.log.debug({ level: field(request.body, 'level'), code: field(request.body, 'code') }, 'auth client log');
    return reply.code(200).send();
  });

  // The pages NextAuth would render: the SPA opens its login modal at `/` (pages.signIn = pages.error = '/').
  app.get(`${PREFIX}/signin`, async (request, reply) => {
    const { callbackUrl } = init(request, reply);
    const error = field(request.query, 'error');
    const query = `callbackUrl=${encodeURIComponent(callbackUrl)}${error ? `&error=${encodeURIComponent(error)}` : ''}`;
    return found(reply, `${SPA_PAGE}?${query}`);
  });

  app.get(`${PREFIX}/error`, async (request, reply) => {
    init(request, reply);
    // NextAuth would write `error=undefined` when the query has none; 'Default' is its generic page.
    const error = field(request.query, 'error') || 'Default';
    if (INLINE_ERRORS.has(error)) return found(reply, `${base}/signin?error=${error}`);
    return found(reply, `${SPA_PAGE}?error=${encodeURIComponent(error)}`);
  });

  for (const page of ['signout', 'verify-request']) {
    app.get(`${PREFIX}/${page}`, async (request, reply) => {
      init(request, reply);
      return found(reply, SPA_PAGE);
    });
  }

  app.all(`${PREFIX}/*`, async (request, reply) => text(reply, 400, unsupported(request.method)));
};
