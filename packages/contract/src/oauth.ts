import { z } from 'zod';
import { idSchema } from './common.ts';

/**
 * The web's half of OAuth for Mastodon apps: the consent page (/oauth/authorize) reads what an app
 * asks for and answers Authorize or Deny; Settings lists the apps a member authorized. The OAuth
 * protocol itself (apps, token, revoke) is server/src/modules/mastodon.
 */
/** GET /oauth/authorize's query, as the app sent it (each field at most 2,000 characters). */
export const authorizationQuery = z.object({
  client_id: z.string().max(2000).optional(),
  redirect_uri: z.string().max(2000).optional(),
  response_type: z.string().max(2000).optional(),
  scope: z.string().max(2000).optional(),
  state: z.string().max(2000).optional(),
  code_challenge: z.string().max(2000).optional(),
  code_challenge_method: z.string().max(2000).optional(),
});
export type AuthorizationQuery = z.infer<typeof authorizationQuery>;
/**
 * The same fields as a plain list, for the consent page: reading them off the schema would bring zod
 * into the web app's first visit (+25 kB gzip). The contract's test holds the two together.
 */
export const AUTHORIZATION_QUERY_FIELDS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const satisfies readonly (keyof AuthorizationQuery)[];

/** What the consent page shows: the app and what it asks for. */
export const authorizationInfo = z.object({
  app: z.object({ name: z.string(), website: z.string().nullable() }),
  scopes: z.array(z.string()),
  /** Where the code goes; urn:ietf:wg:oauth:2.0:oob when the page shows it instead. */
  redirectUri: z.string(),
});
export type AuthorizationInfo = z.infer<typeof authorizationInfo>;

/** POST /api/oauth/authorization: the member's answer to that request. */
export const authorizationDecision = authorizationQuery
  .extend({ decision: z.enum(['approve', 'deny'], { error: 'decision must be approve or deny' }) })
  .strict();
export type AuthorizationDecision = z.input<typeof authorizationDecision>;

/** Where the browser goes next (null: stay, and show `code` for an app without a redirect). */
export const authorizationResult = z.object({ redirectTo: z.string().nullable(), code: z.string().nullable() });
export type AuthorizationResult = z.infer<typeof authorizationResult>;

/** An app the member authorized (Settings → Authorized apps). */
export const authorizedApp = z.object({
  id: idSchema,
  name: z.string(),
  website: z.string().nullable(),
  scopes: z.array(z.string()),
  authorizedAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type AuthorizedApp = z.infer<typeof authorizedApp>;
export const authorizedAppList = z.object({ items: z.array(authorizedApp) });
