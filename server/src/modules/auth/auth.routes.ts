import formbody from '@fastify/formbody';
import { SIGN_IN_ERRORS, webauthnResponse } from '@pipit/contract';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
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
import type { PasskeysService } from '../passkeys/passkeys.service.ts';
import type { SessionsService } from '../sessions/sessions.service.ts';
import type { TwoFactorService } from '../two-factor/two-factor.service.ts';
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
import type { AuthService } from './auth.service.ts';

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

/** What every handler needs, settled once from the config and the app's services. */
interface Auth {
  config: Config;
  service: AuthService;
  sessions: SessionsService;
  twoFactor: TwoFactorService;
  passkeys: PasskeysService;
  names: ReturnType<typeof cookieNames>;
  cookieOptions: ReturnType<typeof baseCookieOptions> & { encode: (value: string) => string };
  origin: string;
  /** `${PUBLIC_URL}/api/auth`: the protocol's absolute URLs. */
  base: string;
}

type Handler = (auth: Auth, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const found = (reply: FastifyReply, url: string) => reply.code(302).header('location', url).send();
const text = (reply: FastifyReply, status: number, message: string) =>
  reply.code(status).type('text/plain; charset=utf-8').send(message);
const clearCookie = (auth: Auth, reply: FastifyReply, name: string) =>
  reply.setCookie(name, '', { ...auth.cookieOptions, maxAge: 0 });

/** NextAuth's Next.js adapter: a post with json=true gets `{url}` and the status, anything else a 302. */
const redirect = (reply: FastifyReply, body: unknown, url: string, status = 200) =>
  field(body, 'json') === 'true' ? reply.code(status).send({ url }) : found(reply, url);

/**
 * NextAuth's assertConfig (an onRequest hook): a callbackUrl in the query or cookie that is neither
 * http(s) nor a path fails every action before it runs.
 */
async function rejectBadCallbackUrl(auth: Auth, request: FastifyRequest, reply: FastifyReply) {
  const fromQuery = field(request.query, 'callbackUrl');
  const fromCookie = request.cookies[auth.names.callbackUrl];
  const badQuery = !!fromQuery && !isValidCallbackUrl(fromQuery, auth.base);
  const badCookie = !!fromCookie && !isValidCallbackUrl(fromCookie, auth.base);
  if (!badQuery && !badCookie) return;
  request.log.warn({ code: 'INVALID_CALLBACK_URL_ERROR' }, 'invalid callback URL'); // client-caused
  // The cookie is HttpOnly: if the server did not drop a bad one, every auth call would keep failing.
  if (badCookie) clearCookie(auth, reply, auth.names.callbackUrl);
  if (request.method === 'GET' && HTML_ACTIONS.has(actionOf(request.url))) {
    return found(reply, `${SPA_PAGE}?error=Configuration`);
  }
  // NextAuth answers 500 with its configuration message; the input is the client's, so: a coded 400.
  return reply.code(400).send(INVALID_CALLBACK_URL);
}

/** Reuses a valid CSRF cookie or issues one, and settles the callback URL (cookie re-set when it changes). */
function init(auth: Auth, request: FastifyRequest, reply: FastifyReply, body?: unknown): AuthRequestState {
  const { config, names, cookieOptions } = auth;
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
  const callbackUrl = raw ? sanitizeCallbackUrl(raw, auth.origin) : auth.origin;
  if (callbackUrl !== fromCookie) reply.setCookie(names.callbackUrl, callbackUrl, cookieOptions);
  return { csrfToken, csrfVerified, callbackUrl };
}

/**
 * The session read from the database by the session plugin for this very request, so it reflects
 * the latest profile. Renews it (at most daily) and re-sets the cookie; drops an unknown or expired one.
 */
async function answerSession(auth: Auth, request: FastifyRequest, reply: FastifyReply) {
  const { viewer, sessionToken } = request;
  if (viewer && sessionToken) {
    const expires = await auth.sessions.touch(viewer);
    reply.setCookie(auth.names.session, sessionToken, { ...auth.cookieOptions, expires });
    return reply.send({
      user: { name: viewer.name, email: viewer.email, image: viewer.profileImage ?? null },
      expires: expires.toISOString(),
    });
  }
  if (sessionToken) {
    await auth.sessions.revoke(sessionToken); // deletes the row when it had merely expired
    clearCookie(auth, reply, auth.names.session);
  }
  return reply.send({});
}

const csrf: Handler = async (auth, request, reply) => {
  const { csrfToken } = init(auth, request, reply);
  return reply.headers(NO_CACHE).send({ csrfToken });
};

// No init: NextAuth answers providers before attaching any cookie. The same for everyone, cookie or
// not: the one public answer under /api/auth.
const providers: Handler = async ({ base }, _request, reply) =>
  reply.header('Cache-Control', 'public, max-age=300').send({
    [PROVIDER_ID]: {
      id: PROVIDER_ID,
      name: 'Credentials',
      type: 'credentials',
      signinUrl: `${base}/signin/${PROVIDER_ID}`,
      callbackUrl: `${base}/callback/${PROVIDER_ID}`,
    },
  });

const getSession: Handler = async (auth, request, reply) => {
  init(auth, request, reply);
  reply.headers(NO_CACHE);
  return answerSession(auth, request, reply);
};

// useSession().update(data): `data` is ignored on purpose; profile changes go through PATCH /api/edit
// and this answer re-reads them. A client must not be able to write its own session.
const updateSession: Handler = async (auth, request, reply) => {
  const { csrfVerified } = init(auth, request, reply, request.body);
  if (!csrfVerified) return reply.code(400).send({});
  return answerSession(auth, request, reply);
};

/** The protocol's answer to a failed sign-in: 401 and `BASE/error?error=<name>&provider=credentials`. */
const failSignIn = (auth: Auth, reply: FastifyReply, body: unknown, error: string) =>
  redirect(reply, body, `${auth.base}/error?${new URLSearchParams({ error, provider: PROVIDER_ID })}`, 401);

/**
 * Who a credentials callback proves, or the error name to answer. Two ways in, both through this one
 * callback (NextAuth's authorize gets the whole form): `passkey` (a WebAuthn answer, JSON), which
 * counts as two factors; or `email` and `password`, then `totp` (an app code or a recovery code)
 * when the account has two-factor sign-in on. The password is checked first, so without it nobody
 * learns whether an account asks for a code. docs/security.md "Two-factor sign-in".
 */
async function signInAccount(auth: Auth, body: unknown): Promise<{ userId: number; email: string } | string> {
  const passkey = field(body, 'passkey');
  if (passkey !== undefined) {
    const response = parsePasskeyAnswer(passkey);
    const found = response ? await auth.passkeys.verifySignIn(response) : null;
    if (found === 'suspended') return 'AccountSuspended';
    return found ? { userId: found.userId, email: found.email.trim().toLowerCase() } : SIGN_IN_ERRORS.passkeyInvalid;
  }
  const userId = await auth.service.verifyCredentials(field(body, 'email'), field(body, 'password'));
  // NextAuth's client passes the error name through; the web says what it means (login-modal.tsx).
  if (userId === 'suspended') return 'AccountSuspended';
  if (userId === null) return 'CredentialsSignin';
  const second = await auth.twoFactor.check(userId, field(body, 'totp'));
  if (second === 'required') return SIGN_IN_ERRORS.twoFactorRequired;
  if (second === 'invalid') return SIGN_IN_ERRORS.twoFactorInvalid;
  return { userId, email: signInEmail(body)! };
}

/** The passkey field's JSON when it has the shape of a WebAuthn answer, else null. */
function parsePasskeyAnswer(value: string): AuthenticationResponseJSON | null {
  if (value.length > 16_384) return null;
  try {
    const parsed = webauthnResponse.safeParse(JSON.parse(value));
    return parsed.success ? (parsed.data as unknown as AuthenticationResponseJSON) : null;
  } catch {
    return null;
  }
}

const signInWithCredentials: Handler = async (auth, request, reply) => {
  const { provider } = request.params as { provider: string };
  if (provider !== PROVIDER_ID) return text(reply, 400, unsupported('POST'));
  const body = request.body;
  const { csrfVerified, callbackUrl } = init(auth, request, reply, body);
  if (!csrfVerified) return redirect(reply, body, `${auth.base}/signin?csrf=true`);
  const account = await signInAccount(auth, body);
  if (typeof account === 'string') return failSignIn(auth, reply, body, account);
  const { token, expiresAt } = await auth.service.startSession(
    account.userId,
    request.sessionToken,
    request.headers['user-agent'],
  );
  reply.setCookie(auth.names.session, token, { ...auth.cookieOptions, expires: expiresAt });
  reply.setCookie(auth.names.device, newDeviceCookie(account.email, auth.config.authSecret), {
    ...auth.cookieOptions,
    maxAge: DEVICE_COOKIE_MAX_AGE_S,
  });
  return redirect(reply, body, callbackUrl);
};

const getCallback: Handler = async (auth, request, reply) => {
  const { provider } = request.params as { provider: string };
  if (provider !== PROVIDER_ID) return text(reply, 400, unsupported('GET'));
  init(auth, request, reply);
  // NextAuth answers 500; a GET here is the client's mistake, so 400 (the client never sends it).
  return text(reply, 400, 'Error: Callback for provider type credentials not supported');
};

// The client posts here only for oauth/email providers; for credentials NextAuth points back to its page.
const postSignIn: Handler = async (auth, request, reply) => {
  const { provider } = request.params as { provider?: string };
  const { csrfVerified } = init(auth, request, reply, request.body);
  if (!csrfVerified || provider !== PROVIDER_ID) return redirect(reply, request.body, `${auth.base}/signin?csrf=true`);
  return redirect(reply, request.body, `${auth.base}/signin`);
};

const signOut: Handler = async (auth, request, reply) => {
  const body = request.body;
  const { csrfVerified, callbackUrl } = init(auth, request, reply, body);
  if (!csrfVerified) return redirect(reply, body, `${auth.base}/signout?csrf=true`);
  if (request.sessionToken) {
    await auth.sessions.revoke(request.sessionToken);
    clearCookie(auth, reply, auth.names.session);
  }
  return redirect(reply, body, callbackUrl);
};

// The client's logger beacons every client-side error here; no CSRF, no cookies, empty 200.
const clientLog: Handler = async (_auth, request, reply) => {
  request.log.debug({ level: field(request.body, 'level'), code: field(request.body, 'code') }, 'auth client log');
  return reply.code(200).send();
};

// The pages NextAuth would render: the SPA opens its login modal at `/` (pages.signIn = pages.error = '/').
const signInPage: Handler = async (auth, request, reply) => {
  const { callbackUrl } = init(auth, request, reply);
  const error = field(request.query, 'error');
  const query = `callbackUrl=${encodeURIComponent(callbackUrl)}${error ? `&error=${encodeURIComponent(error)}` : ''}`;
  return found(reply, `${SPA_PAGE}?${query}`);
};

const errorPage: Handler = async (auth, request, reply) => {
  init(auth, request, reply);
  // NextAuth would write `error=undefined` when the query has none; 'Default' is its generic page.
  const error = field(request.query, 'error') || 'Default';
  if (INLINE_ERRORS.has(error)) return found(reply, `${auth.base}/signin?error=${error}`);
  return found(reply, `${SPA_PAGE}?error=${encodeURIComponent(error)}`);
};

const spaPage: Handler = async (auth, request, reply) => {
  init(auth, request, reply);
  return found(reply, SPA_PAGE);
};

const unsupportedAction: Handler = async (_auth, request, reply) => text(reply, 400, unsupported(request.method));

/** Every route under /api/auth; `limited` ones count against the sign-in limits first. */
const ROUTES: { method: 'GET' | 'POST' | 'ALL'; url: string; handler: Handler; limited?: true }[] = [
  { method: 'GET', url: '/csrf', handler: csrf },
  { method: 'GET', url: '/providers', handler: providers },
  { method: 'GET', url: '/session', handler: getSession },
  { method: 'POST', url: '/session', handler: updateSession },
  { method: 'POST', url: '/callback/:provider', handler: signInWithCredentials, limited: true },
  { method: 'GET', url: '/callback/:provider', handler: getCallback },
  { method: 'POST', url: '/signin', handler: postSignIn },
  { method: 'POST', url: '/signin/:provider', handler: postSignIn },
  { method: 'POST', url: '/signout', handler: signOut },
  { method: 'POST', url: '/_log', handler: clientLog },
  { method: 'GET', url: '/signin', handler: signInPage },
  { method: 'GET', url: '/error', handler: errorPage },
  { method: 'GET', url: '/signout', handler: spaPage },
  { method: 'GET', url: '/verify-request', handler: spaPage },
  { method: 'ALL', url: '/*', handler: unsupportedAction },
];

/**
 * The NextAuth v4 protocol under /api/auth (docs/spec/auth-protocol.md), with database sessions:
 * the cookie holds an opaque token, the sessions table its hash. Answers are protocol-shaped
 * (`{}`, `{url}`, text), except rate limiting and unexpected 5xx, which use the app's error shape.
 */
export const authRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  // Only this plugin's routes parse form bodies; the rest of /api stays JSON-only (415).
  await app.register(formbody);
  const auth: Auth = {
    config,
    service: app.services.auth,
    sessions: app.services.sessions,
    twoFactor: app.services.twoFactor,
    passkeys: app.services.passkeys,
    names: cookieNames(config),
    // Values are URI-encoded like NextAuth's (`token|hash` goes out as `token%7Chash`).
    cookieOptions: { ...baseCookieOptions(config), encode: encodeURIComponent },
    origin: new URL(config.publicUrl).origin,
    base: `${config.publicUrl}${PREFIX}`,
  };

  app.addHook('onRequest', (request, reply) => rejectBadCallbackUrl(auth, request, reply));

  // Sign-in limits per IP and per account. The account's allowance is shared by the browsers it
  // never signed in from; a known device (its cookie, set at each successful sign-in) has its own, so
  // attempts from elsewhere — any number of addresses — cannot lock the owner out of their browser.
  // The 429 keeps the app's {code, message} and adds the protocol's `url`, so next-auth's signIn()
  // reports an error instead of failing on `new URL(undefined)`.
  const limitByIp = app.limit('signInIp', (request) => request.ip);
  const limitByAccount = app.limit('signInAccount', (request) => {
    const email = signInEmail(request.body);
    if (!email) return null; // no email: the IP limit only
    const device = knownDevice(request.cookies[auth.names.device], email, config.authSecret);
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
        .send({ code: error.code, message: error.message, url: `${auth.base}/error?error=RateLimited` });
    }
  }

  for (const route of ROUTES) {
    const url = `${PREFIX}${route.url}`;
    const handler = (request: FastifyRequest, reply: FastifyReply) => route.handler(auth, request, reply);
    if (route.method === 'ALL') app.all(url, handler);
    else app.route({ method: route.method, url, handler, ...(route.limited ? { preHandler: limitSignIn } : {}) });
  }
};
