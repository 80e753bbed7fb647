import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Role } from '@pipit/contract';
import type { Database, Executor } from '../../db/client.ts';
import { sha256Hex } from '../../lib/auth-cookies.ts';
import { EventCache } from '../../lib/event-cache.ts';
import { type EventBus, exhaustive } from '../../lib/events.ts';
import type { OtherCredentials, SessionUser } from '../sessions/sessions.service.ts';
import { OAuthError } from './oauth.errors.ts';
import * as repo from './oauth.repository.ts';
import { parseScopes, within } from './scopes.ts';

/** Where an app without a web page of its own asks the code to be shown (RFC 8252's out-of-band). */
export const OOB = 'urn:ietf:wg:oauth:2.0:oob';
/** How long an authorization code lives (RFC 6749 §4.1.2 recommends at most 10 minutes). */
const CODE_TTL_MS = 10 * 60_000;

const random = () => randomBytes(32).toString('base64url');

/** Equal strings in constant time (secrets). */
function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** RFC 7636 S256: base64url(sha256(verifier)). */
export const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** A redirect URI an app may register: an absolute URI without a fragment (https, http, an app's own scheme), or OOB. */
function validRedirectUri(uri: string): boolean {
  if (uri === OOB) return true;
  try {
    const url = new URL(uri);
    return url.hash === '' && !['javascript:', 'data:', 'file:', 'vbscript:'].includes(url.protocol);
  } catch {
    return false;
  }
}

export interface AuthorizationRequest {
  client_id?: string;
  redirect_uri?: string;
  response_type?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

/** What the consent page shows, once the request is known to be sound. */
export interface Authorization {
  app: { name: string; website: string | null };
  scopes: string[];
  redirectUri: string;
}

/** Who a bearer token speaks for: a person (with the token's scopes), or an app as itself. */
export interface TokenGrant {
  tokenId: number;
  appId: number;
  scopes: string[];
  /** Null for an app token (client credentials). */
  viewer: SessionUser | null;
}

const CACHE = { max: 10_000, ttlMs: 30_000 };

/**
 * OAuth 2 for Mastodon apps (RFC 6749 with PKCE, RFC 7636; revocation, RFC 7009): apps register,
 * a signed-in person approves an app on the consent page, the app trades the code for a token.
 * Tokens, codes and client secrets are stored as sha256 only. A token ends with a revocation, the
 * person's "sign out everywhere", a new password, or a suspension.
 */
export class OAuthService implements OtherCredentials {
  private readonly cache: EventCache<string, TokenGrant>;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {
    this.cache = new EventCache(events, CACHE);
    events.subscribe((event) => {
      switch (event.type) {
        case 'sessions.ended':
        case 'user.updated':
        case 'user.suspended':
        case 'oauth.revoked':
          this.cache.dropWhere((grant) => grant.viewer?.userId === event.userId);
          break;
        case 'post.created':
        case 'post.deleted':
        case 'post.updated':
        case 'post.card':
        case 'post.liked':
        case 'post.unliked':
        case 'post.bookmarked':
        case 'post.unbookmarked':
        case 'user.followed':
        case 'user.unfollowed':
        case 'hashtag.followed':
        case 'hashtag.unfollowed':
        case 'visibility.changed':
        case 'feed.updated':
        case 'notifications.read':
        case 'notification.created':
        case 'conversation.updated':
        case 'poll.updated':
          // A grant holds the token's scopes and who it speaks for: nothing else changes it.
          break;
        default:
          exhaustive(event);
      }
    });
  }

  /** POST /api/v1/apps. The secret is answered once; only its hash is kept. */
  async registerApp(input: {
    name: string;
    redirectUris: string[];
    scopes: string | undefined;
    website: string | null;
  }) {
    if (input.redirectUris.length === 0 || !input.redirectUris.every(validRedirectUri)) {
      throw new OAuthError('invalid_request', 'redirect_uris must be absolute URIs (or urn:ietf:wg:oauth:2.0:oob)');
    }
    const scopes = parseScopes(input.scopes);
    if (!scopes) throw new OAuthError('invalid_scope', 'scopes has an unknown scope');
    const clientSecret = random();
    const row = await repo.insertApp(this.db, {
      clientId: random(),
      clientSecretHash: sha256Hex(clientSecret),
      name: input.name,
      redirectUris: input.redirectUris,
      scopes: scopes.join(' '),
      website: input.website,
    });
    return { row, clientSecret };
  }

  /**
   * Checks an authorization request (GET /oauth/authorize's query). A wrong client or redirect URI
   * throws `redirect: false` (RFC 6749 §4.1.2.1: never redirect to an unverified URI); any other
   * problem is for the app, at its redirect URI.
   */
  async checkAuthorization(query: AuthorizationRequest): Promise<Authorization & { appId: number }> {
    const app = query.client_id ? await repo.findAppByClientId(this.db, query.client_id) : null;
    if (!app) throw new OAuthError('invalid_client', 'There is no app with this client_id.');
    const redirectUri = query.redirect_uri ?? (app.redirectUris.length === 1 ? app.redirectUris[0] : undefined);
    if (!redirectUri || !app.redirectUris.includes(redirectUri)) {
      throw new OAuthError('invalid_request', 'redirect_uri is not one the app registered.');
    }
    const toApp = (error: OAuthError) => Object.assign(error, { redirectUri, state: query.state });
    if (query.response_type !== 'code') {
      throw toApp(new OAuthError('unsupported_response_type', 'response_type must be code.'));
    }
    const scopes = parseScopes(query.scope);
    if (!scopes || !within(scopes, app.scopes.split(' '))) {
      throw toApp(new OAuthError('invalid_scope', 'scope asks for more than the app registered.'));
    }
    if (query.code_challenge !== undefined || query.code_challenge_method !== undefined) {
      if (query.code_challenge_method !== 'S256') {
        throw toApp(new OAuthError('invalid_request', 'code_challenge_method must be S256.'));
      }
      if (!query.code_challenge || !/^[A-Za-z0-9_-]{43}$/.test(query.code_challenge)) {
        throw toApp(new OAuthError('invalid_request', 'code_challenge must be a base64url SHA-256 (43 characters).'));
      }
    }
    return { appId: app.id, app: { name: app.name, website: app.website }, scopes, redirectUri };
  }

  /** The person approved: a code for the app (shown on the page for OOB). */
  async approve(
    viewer: SessionUser,
    query: AuthorizationRequest,
  ): Promise<{ redirectTo: string | null; code: string }> {
    const checked = await this.checkAuthorization(query);
    const code = random();
    await repo.insertCode(this.db, {
      codeHash: sha256Hex(code),
      appId: checked.appId,
      userId: viewer.userId,
      redirectUri: checked.redirectUri,
      scopes: checked.scopes.join(' '),
      codeChallenge: query.code_challenge ?? null,
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    });
    if (checked.redirectUri === OOB) return { redirectTo: null, code };
    return { redirectTo: withParams(checked.redirectUri, { code, state: query.state }), code };
  }

  /** The person said no: back to the app with access_denied. */
  async deny(query: AuthorizationRequest): Promise<{ redirectTo: string | null }> {
    const checked = await this.checkAuthorization(query);
    if (checked.redirectUri === OOB) return { redirectTo: null };
    return {
      redirectTo: withParams(checked.redirectUri, {
        error: 'access_denied',
        error_description: 'The person did not authorize the app.',
        state: query.state,
      }),
    };
  }

  /** POST /oauth/token (RFC 6749 §4.1.3 and §4.4; PKCE, RFC 7636 §4.6). */
  async token(input: {
    grantType: string | undefined;
    clientId: string | undefined;
    clientSecret: string | undefined;
    code?: string | undefined;
    redirectUri?: string | undefined;
    codeVerifier?: string | undefined;
    scope?: string | undefined;
  }): Promise<{ access_token: string; token_type: 'Bearer'; scope: string; created_at: number }> {
    if (!input.grantType) throw new OAuthError('invalid_request', 'grant_type is required.');
    if (input.grantType !== 'authorization_code' && input.grantType !== 'client_credentials') {
      throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or client_credentials.');
    }
    const app = input.clientId ? await repo.findAppByClientId(this.db, input.clientId) : null;
    if (!app) throw new OAuthError('invalid_client', 'Unknown client.');
    const secretGiven = input.clientSecret !== undefined && input.clientSecret !== '';
    if (secretGiven && !sameSecret(sha256Hex(input.clientSecret as string), app.clientSecretHash)) {
      throw new OAuthError('invalid_client', 'Wrong client secret.');
    }

    if (input.grantType === 'client_credentials') {
      if (!secretGiven) throw new OAuthError('invalid_client', 'client_secret is required.');
      const scopes = parseScopes(input.scope);
      if (!scopes || !within(scopes, app.scopes.split(' '))) {
        throw new OAuthError('invalid_scope', 'scope asks for more than the app registered.');
      }
      return this.issue(app.id, null, scopes, null);
    }

    if (!input.code) throw new OAuthError('invalid_request', 'code is required.');
    const code = input.code;
    const exchanged = await this.db.transaction(async (tx) => {
      const row = await repo.lockCode(tx, sha256Hex(code));
      if (!row || row.appId !== app.id) throw new OAuthError('invalid_grant', 'The code is not valid for this client.');
      if (row.usedAt !== null) return { reusedCodeId: row.id, token: undefined };
      if (row.expiresAt.getTime() <= Date.now()) throw new OAuthError('invalid_grant', 'The code has expired.');
      if ((input.redirectUri ?? row.redirectUri) !== row.redirectUri) {
        throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request’s.');
      }
      if (row.codeChallenge !== null) {
        if (!input.codeVerifier) throw new OAuthError('invalid_grant', 'code_verifier is required.');
        if (!/^[A-Za-z0-9._~-]{43,128}$/.test(input.codeVerifier) || s256(input.codeVerifier) !== row.codeChallenge) {
          throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge.');
        }
      } else {
        if (input.codeVerifier) throw new OAuthError('invalid_grant', 'No code_challenge was sent for this code.');
        if (!secretGiven) throw new OAuthError('invalid_client', 'client_secret is required.');
      }
      await repo.spendCode(tx, row.id);
      return { reusedCodeId: null, token: await this.issue(app.id, row.userId, row.scopes.split(' '), row.id, tx) };
    });
    if (exchanged.token) return exchanged.token;
    // Used twice: someone else may hold it. What it gave is revoked (after the read above committed).
    const users = await repo.revokeTokensOfCode(this.db, exchanged.reusedCodeId as number);
    if (users.length > 0)
      await this.events.publish(users.map((userId) => ({ type: 'oauth.revoked' as const, userId })));
    throw new OAuthError('invalid_grant', 'The code was already used.');
  }

  /** POST /oauth/revoke (RFC 7009): the app's token is revoked; an unknown token is not an error. */
  async revoke(input: { clientId: string | undefined; clientSecret: string | undefined; token: string | undefined }) {
    const app = input.clientId ? await repo.findAppByClientId(this.db, input.clientId) : null;
    if (!app || !input.clientSecret || !sameSecret(sha256Hex(input.clientSecret), app.clientSecretHash)) {
      throw new OAuthError('invalid_client', 'Unknown client or wrong client secret.');
    }
    if (!input.token) throw new OAuthError('invalid_request', 'token is required.');
    const gone = await repo.deleteAppToken(this.db, app.id, sha256Hex(input.token));
    if (gone?.userId) await this.events.publish([{ type: 'oauth.revoked', userId: gone.userId }]);
  }

  /** Resolves `Authorization: Bearer …` (null for an unknown or revoked token, or a suspended person's). */
  async resolve(token: string): Promise<TokenGrant | null> {
    if (token.length === 0 || token.length > 200) return null;
    const hash = sha256Hex(token);
    const cached = this.cache.get(hash);
    if (cached) return cached;
    const ticket = this.cache.ticket();
    const row = await repo.findToken(this.db, hash);
    if (!row || row.suspendedAt !== null) return null;
    const viewer: SessionUser | null =
      row.userId === null
        ? null
        : {
            sessionId: 0,
            userId: row.userId,
            name: row.name ?? '',
            email: row.email ?? '',
            username: row.username ?? '',
            profileImage: row.profileImage,
            role: (row.role ?? 'member') as Role,
            defaultVisibility: row.defaultVisibility ?? 'public',
            expiresAt: new Date(8_640_000_000_000_000),
          };
    const grant: TokenGrant = { tokenId: row.id, appId: row.appId, scopes: row.scopes.split(' '), viewer };
    this.cache.set(hash, grant, ticket);
    await repo.touchToken(this.db, row.id);
    return grant;
  }

  /** Every token and code of the person (signed out everywhere, a new password, a suspension): the sessions' seam. */
  async endAllWithin(db: Executor, userId: number): Promise<void> {
    await repo.deleteUserTokens(db, userId);
  }

  /** Settings → Authorized apps. */
  async authorizedApps(viewer: SessionUser) {
    const rows = await repo.findAuthorizedApps(this.db, viewer.userId);
    return rows.map((row) => ({
      id: String(row.id),
      name: row.name,
      website: row.website,
      scopes: [...new Set(row.scopes.split(' '))],
      authorizedAt: (row.lastAuthorizedAt ?? row.authorizedAt ?? new Date()).toISOString(),
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    }));
  }

  /** Revokes an app's access to the member (every token and code it holds of theirs). */
  async revokeApp(viewer: SessionUser, appId: number): Promise<boolean> {
    const gone = await repo.deleteUserAppGrants(this.db, viewer.userId, appId);
    if (gone) await this.events.publish([{ type: 'oauth.revoked', userId: viewer.userId }]);
    return gone;
  }

  private async issue(
    appId: number,
    userId: number | null,
    scopes: string[],
    codeId: number | null,
    db: Parameters<typeof repo.insertToken>[0] = this.db,
  ) {
    const token = random();
    const row = await repo.insertToken(db, {
      tokenHash: sha256Hex(token),
      appId,
      userId,
      scopes: scopes.join(' '),
      codeId,
    });
    return {
      access_token: token,
      token_type: 'Bearer' as const,
      scope: scopes.join(' '),
      created_at: Math.floor(row.createdAt.getTime() / 1000),
    };
  }
}

/** `base` with `params` added to its query (undefined ones left out). */
function withParams(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}
