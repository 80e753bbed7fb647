import { NOTIFICATION_TYPES } from '@pipit/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, invalid, notFound } from '../../lib/errors.ts';
import { preferredLanguage } from '../../lib/languages.ts';
import { bearerToken, noToken } from '../oauth/bearer.ts';
import { PUSH_POLICIES } from '../push/push.service.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { route, userOf } from './mastodon.http.ts';
import { flag } from './mastodon.schemas.ts';
import { MASTODON_TYPES } from './notification.presenter.ts';
import { MASTODON_ALERTS, toWebPushSubscription } from './push.presenter.ts';

const alertsSchema = z
  .record(z.string(), flag)
  .refine((alerts) => Object.keys(alerts).every((name) => (MASTODON_ALERTS as readonly string[]).includes(name)), {
    message: `alerts are ${MASTODON_ALERTS.join(', ')}`,
  })
  .optional();
const policySchema = z.enum(PUSH_POLICIES).optional();

const createBody = z.object({
  subscription: z.object({
    endpoint: z.string().max(2048),
    keys: z.object({ p256dh: z.string().max(200), auth: z.string().max(100) }),
    standard: flag.optional(),
  }),
  data: z.object({ alerts: alertsSchema, policy: policySchema }).optional(),
});
const updateBody = z.object({
  data: z.object({ alerts: alertsSchema, policy: policySchema }).optional(),
  // The description has the policy beside `data` on PUT; Mastodon reads it inside. Either is taken.
  policy: policySchema,
});

/**
 * Mastodon's Web Push API (`/api/v1/push/subscription`): each access token has at most one
 * subscription, created (replacing the old one), read, changed (alerts, policy) and removed here, and
 * removed with the token. The subscription and its deliveries are modules/push's; Mastodon's alert
 * names are mapped onto Pipit's notification types (a reply is Mastodon's mention; `status`,
 * `quoted_update` and the admin alerts are kept as set, and Pipit has nothing to push for them).
 */
export async function pushRoutes(app: FastifyInstance, _context: MastodonContext) {
  const { push } = app.services;
  const tokenOf = (request: FastifyRequest) => {
    const value = bearerToken(request.headers.authorization);
    if (!value || !request.grant) throw noToken();
    return { id: request.grant.tokenId, value };
  };

  route(app, e.pushSubscription, async (request) => {
    userOf(request);
    const row = await push.ofToken(tokenOf(request).id);
    if (!row) throw notFound('Record not found');
    return toWebPushSubscription(row, push.vapidPublicKey);
  });

  route(app, e.createPushSubscription, async (request) => {
    const viewer = userOf(request);
    const body = parse(createBody, request.body);
    const alerts = allAlerts(body.data?.alerts);
    try {
      const row = await push.subscribeToken(viewer.userId, tokenOf(request), {
        endpoint: body.subscription.endpoint,
        keys: body.subscription.keys,
        standard: body.subscription.standard ?? false,
        alerts,
        kinds: kindsOf(alerts),
        policy: body.data?.policy ?? 'all',
        language: preferredLanguage(request.headers['accept-language']),
      });
      return toWebPushSubscription(row, push.vapidPublicKey);
    } catch (error) {
      // Too many subscriptions is Mastodon's validation error.
      if (error instanceof AppError && error.code === 'LIMIT_REACHED') throw invalid('base', error.message);
      throw error;
    }
  });

  route(app, e.updatePushSubscription, async (request) => {
    userOf(request);
    const token = tokenOf(request);
    const body = parse(updateBody, request.body);
    const current = await push.ofToken(token.id);
    if (!current) throw notFound('Record not found');
    // Alerts left out keep their values; those sent replace them.
    const alerts = { ...allAlerts(current.alerts ?? {}), ...(body.data?.alerts ?? {}) };
    const policy = body.data?.policy ?? body.policy ?? (current.policy as (typeof PUSH_POLICIES)[number]);
    const row = await push.updateToken(token.id, { alerts, kinds: kindsOf(alerts), policy });
    if (!row) throw notFound('Record not found');
    return toWebPushSubscription(row, push.vapidPublicKey);
  });

  route(app, e.deletePushSubscription, async (request) => {
    userOf(request);
    await push.removeToken(tokenOf(request).id);
    return {};
  });
}

/** Every alert Mastodon names, false unless set. */
function allAlerts(set: Record<string, boolean> | undefined): Record<string, boolean> {
  return Object.fromEntries(MASTODON_ALERTS.map((name) => [name, set?.[name] === true]));
}

/** The Pipit notification types the alerts ask for. */
const kindsOf = (alerts: Record<string, boolean>) => NOTIFICATION_TYPES.filter((type) => alerts[MASTODON_TYPES[type]]);

/**
 * The body as JSON has it: forms name nested fields `subscription[keys][p256dh]` (any depth, as Rails
 * reads them), JSON nests them already. A field that does not fit is a 422 naming it.
 */
function parse<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  const result = schema.safeParse(nestedFields(raw));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw invalid(issue?.path.join('.') || 'base', issue?.message ?? 'Invalid request');
}

function nestedFields(raw: unknown): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const match = /^([^[\]]+)((?:\[[^[\]]+\])*)$/.exec(name);
    if (!match?.[1]) continue;
    const path = [match[1], ...[...(match[2] ?? '').matchAll(/\[([^[\]]+)\]/g)].map((m) => m[1] as string)];
    let target = out;
    for (const key of path.slice(0, -1)) {
      const next = Object.hasOwn(target, key) ? target[key] : undefined;
      if (next && typeof next === 'object' && !Array.isArray(next)) {
        target = next as Record<string, unknown>;
      } else {
        const created: Record<string, unknown> = Object.create(null);
        target[key] = created;
        target = created;
      }
    }
    target[path[path.length - 1] as string] = value;
  }
  // Null-prototype containers (a field named __proto__ is only a field); the schema reads them as it
  // reads plain objects and returns plain ones, and never walks deeper than it asks.
  return out;
}
