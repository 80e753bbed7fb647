/**
 * What Mastodon routes take, as zod schemas. Apps send the same fields as JSON, as a form or as
 * multipart form fields; forms name lists `media_ids[]` and objects `poll[options][]`: `formFields`
 * turns those into the shapes JSON has, so one schema reads all three.
 */
import {
  LIST_LIMITS,
  LIST_REPLIES_POLICIES,
  listTitle,
  POLL_LIMITS,
  REPORT_COMMENT_MAX,
  searchText,
} from '@pipit/contract';
import { z } from 'zod';
import { invalid } from '../../lib/errors.ts';
import { WIRE_ID } from '../../lib/ids.ts';

/** `a[]` → a list under `a`; `a[b]` → an object under `a` (one level, `a[b][]` a list in it), as Rails reads forms. */
export function formFields(raw: unknown): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, unknown> = Object.create(null);
  const add = (target: Record<string, unknown>, key: string, value: unknown, list: boolean) => {
    if (!list) {
      target[key] = value;
      return;
    }
    const have = Object.hasOwn(target, key) ? target[key] : [];
    target[key] = [...(Array.isArray(have) ? have : [have]), ...(Array.isArray(value) ? value : [value])];
  };
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const match = /^([^[\]]+)(?:\[([^[\]]*)\])?(\[\])?$/.exec(name);
    if (!match?.[1]) continue;
    const [, base, inner, tail] = match;
    if (inner === undefined) {
      add(out, base, value, false);
    } else if (inner === '') {
      add(out, base, value, true);
    } else {
      const nested = (Object.hasOwn(out, base) && typeof out[base] === 'object' ? out[base] : {}) as Record<
        string,
        unknown
      >;
      add(nested, inner, value, tail !== undefined);
      out[base] = nested;
    }
  }
  return { ...out };
}

/** A boolean as forms and query strings send it ("true", "1") or JSON does. */
export const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', 'off', ''])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'on');

/** A Mastodon id (the one id rule). */
export const mastodonId = z
  .union([z.string(), z.number().int()])
  .transform(String)
  .pipe(z.string().regex(WIRE_ID, 'must be an id'));

/** A list of values, sent as `name[]` (several) or one value. */
export const listOf = <T extends z.ZodType>(item: T, max: number) =>
  z
    .union([z.array(item), item])
    .transform((v) => (Array.isArray(v) ? v : [v]) as z.output<T>[])
    .pipe(z.array(z.any()).max(max, `at most ${max}`)) as unknown as z.ZodType<z.output<T>[]>;

/** The paging keys every list takes (ids that name nothing are ignored, as Mastodon does). */
export const pageQuery = z.object({
  max_id: z.string().optional(),
  since_id: z.string().optional(),
  min_id: z.string().optional(),
  limit: z.string().optional(),
});

/** POST /api/v1/statuses. Fields Pipit cannot honour yet are read so they can be refused by name. */
export const statusBody = z.object({
  status: z.string().optional(),
  in_reply_to_id: mastodonId.nullish(),
  media_ids: listOf(mastodonId, 4).optional(),
  // Mastodon 4.5's name, and the older one some apps send.
  quoted_status_id: mastodonId.nullish(),
  quote_id: mastodonId.nullish(),
  visibility: z.string().nullish(),
  spoiler_text: z.string().nullish(),
  sensitive: flag.nullish(),
  poll: z.unknown().optional(),
  scheduled_at: z.string().nullish(),
  language: z.string().max(10).nullish(),
  quote_approval_policy: z.string().nullish(),
});
export type StatusBody = z.output<typeof statusBody>;

/**
 * PUT /api/v1/statuses/:id (an edit): the whole new status, as Mastodon takes it — what is left out
 * is empty (no text, no warning, no pictures). `media_attributes` (JSON: `[{id, description, focus}]`)
 * sets the alt text of pictures in `media_ids`; `poll` as on create (`pollField`), left out: no poll.
 */
export const statusEditBody = z.object({
  status: z.string().optional(),
  spoiler_text: z.string().nullish(),
  sensitive: flag.nullish(),
  media_ids: listOf(mastodonId, 4).optional(),
  media_attributes: z
    .array(
      z.object({
        id: mastodonId,
        description: z.string().nullish(),
        focus: z.string().nullish(),
      }),
    )
    .max(4, 'at most 4')
    .optional(),
  poll: z.unknown().optional(),
  language: z.string().max(10).nullish(),
  quote_approval_policy: z.string().nullish(),
});
export type StatusEditBody = z.output<typeof statusEditBody>;
/** POST /api/v1/polls/:id/votes: `choices[]`, option indexes (numbers, or digits as forms send them). */
export const votePollBody = z.object({
  choices: listOf(
    z
      .union([z.number(), z.string().regex(/^\d{1,3}$/, 'choices must be option indexes (0, 1, …)')])
      .transform(Number)
      .pipe(
        z.number().int('choices must be option indexes (0, 1, …)').min(0, 'choices must be option indexes (0, 1, …)'),
      ),
    POLL_LIMITS.maxOptions,
  )
    .refine((choices) => choices.length > 0, 'choose at least one option')
    .refine((choices) => new Set(choices).size === choices.length, 'choose each option at most once'),
});

/**
 * A status's `poll`, as JSON sends it or as forms do (`poll[options][]`, `poll[expires_in]`, strings):
 * read into Pipit's pollInput shape (the contract then checks its limits).
 */
export const pollField = z.object({
  options: listOf(z.string({ error: 'poll[options] must be texts' }), 100),
  expires_in: z
    .union([z.number(), z.string().regex(/^\d{1,9}$/, 'poll[expires_in] must be a number of seconds')])
    .transform(Number),
  multiple: flag.optional(),
  hide_totals: flag.optional(),
});

/** PUT /api/v1/scheduled_statuses/:id: a new time (Mastodon changes nothing else there). */
export const scheduledStatusBody = z.object({ scheduled_at: z.string().nullish() });

/** POST /api/v1/accounts/:id/mute: seconds (0 or missing: for good), and whether notifications are muted too. */
export const muteBody = z.object({
  duration: z.union([z.number(), z.string()]).optional(),
  notifications: flag.optional(),
});

/** POST /api/v1/markers: the notifications' last read id (the home marker is not kept). */
export const markersBody = z.object({
  notifications: z.object({ last_read_id: mastodonId }).optional(),
  home: z.object({ last_read_id: z.unknown() }).optional(),
});

/** GET /api/v2/search. */
export const searchQuery = z.object({
  q: z.string().optional(),
  type: z.enum(['accounts', 'hashtags', 'statuses']).optional(),
  limit: z.string().optional(),
  offset: z
    .string()
    .regex(/^\d{1,5}$/, 'offset must be a number from 0 to 99999')
    .optional(),
  resolve: z.string().optional(),
  following: z.string().optional(),
  account_id: z.string().optional(),
  exclude_unreviewed: z.string().optional(),
  max_id: z.string().optional(),
  min_id: z.string().optional(),
});

/** A search's text (the web's rule: any text, trimmed, not empty, bounded): 422 naming `q` otherwise. */
export function searchTextOf(raw: unknown): string {
  const parsed = searchText.safeParse(typeof raw === 'string' ? raw : '');
  if (!parsed.success) throw invalid('q', parsed.error.issues[0]?.message ?? 'Search for something');
  return parsed.data;
}

const repliesPolicy = z.enum(LIST_REPLIES_POLICIES, {
  error: `replies_policy must be one of ${LIST_REPLIES_POLICIES.join(', ')}`,
});

/** POST /api/v1/lists: a title (the web's rule), replies_policy (default `list`), exclusive. */
export const createListBody = z.object({
  title: listTitle,
  replies_policy: repliesPolicy.optional(),
  exclusive: flag.optional(),
});

/** PUT /api/v1/lists/:id: what changes. */
export const updateListBody = z.object({
  title: listTitle.optional(),
  replies_policy: repliesPolicy.optional(),
  exclusive: flag.optional(),
});

/** POST and DELETE /api/v1/lists/:id/accounts: `account_ids[]`, at least one. */
export const listAccountsBody = z.object({
  account_ids: listOf(mastodonId, LIST_LIMITS.members).refine((ids) => ids.length > 0, 'name at least one account'),
});

/** POST /api/v1/reports. */
export const reportBody = z.object({
  account_id: mastodonId,
  status_ids: listOf(mastodonId, 5).optional(),
  comment: z.string().max(REPORT_COMMENT_MAX, `comment is at most ${REPORT_COMMENT_MAX} characters`).optional(),
  forward: flag.optional(),
  category: z.string().max(40).optional(),
  rule_ids: listOf(z.union([z.string(), z.number()]), 50).optional(),
  collection_ids: listOf(z.union([z.string(), z.number()]), 50).optional(),
  forward_to_domains: listOf(z.string().max(300), 50).optional(),
});
