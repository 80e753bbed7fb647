import type { Report, ReportCategory } from '@pipit/contract';
import type { FastifyInstance } from 'fastify';
import { invalid } from '../../lib/errors.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { postIdOf, route, userIdOf, userOf } from './mastodon.http.ts';

/** Mastodon's report categories as Pipit's: `legal` is "Something illegal"; `violation` needs instance rules Pipit has not. */
const CATEGORY_IN: Record<string, ReportCategory> = { spam: 'spam', legal: 'illegal', other: 'other' };
/** Pipit's categories as Mastodon's (harassment, hate and violence have no category of their own there). */
const categoryOut = (category: ReportCategory) =>
  category === 'spam' ? 'spam' : category === 'illegal' ? 'legal' : 'other';

/**
 * Reports (POST /api/v1/reports): a person, with the posts of theirs attached, to this server's moderators —
 * and, with `forward`, to the moderators of the person's own server when they are elsewhere. Pipit files one
 * report per post (its moderators act on a post at a time), or one about the person when none is attached, and
 * answers the first with every post's id. What Pipit cannot honour is refused (422), never dropped: a
 * `violation` (there are no instance rules to cite), rule or collection ids.
 */
export async function reportsRoutes(app: FastifyInstance, context: MastodonContext) {
  const { moderation, posts, users } = app.services;

  route(app, e.createReport, async (request, _reply, { body }) => {
    const viewer = userOf(request);
    const accountId = userIdOf(body.account_id);
    if ((body.rule_ids ?? []).length > 0) throw invalid('rule_ids', 'rule_ids: this server has no rules to cite.');
    if ((body.collection_ids ?? []).length > 0)
      throw invalid('collection_ids', 'collection_ids: collections cannot be reported here.');
    const category = CATEGORY_IN[body.category ?? 'other'];
    if (!category) throw invalid('category', 'category must be spam, legal or other (this server has no rules).');
    const input = { category, comment: body.comment ?? '', forward: body.forward ?? false };
    // Everything is checked before anything is filed: a refusal writes nothing.
    const person = await users.profile(viewer, accountId);
    // Mastodon forwards to these too (the servers of people the posts answer); Pipit only to the person's own.
    const elsewhere = (body.forward_to_domains ?? []).filter((domain) => domain.toLowerCase() !== person.domain);
    if (elsewhere.length > 0) {
      throw invalid('forward_to_domains', 'forward_to_domains: only the reported account’s own server can be sent it.');
    }
    const statusIds = body.status_ids ?? [];
    for (const statusId of statusIds) {
      const post = await posts.get(viewer, postIdOf(statusId));
      if (post.author.id !== person.id) {
        throw invalid('status_ids', 'status_ids must be posts of the reported account.');
      }
    }
    const filed: Report[] = [];
    for (const statusId of statusIds) filed.push(await moderation.reportPost(viewer, postIdOf(statusId), input));
    if (filed.length === 0) filed.push(await moderation.reportUser(viewer, accountId, input));
    const first = filed[0] as Report;
    return {
      id: first.id,
      action_taken: first.outcome !== null,
      action_taken_at: first.resolvedAt,
      category: categoryOut(first.category),
      comment: first.comment,
      forwarded: first.forwarded,
      created_at: first.createdAt,
      status_ids: statusIds.length > 0 ? statusIds : null,
      rule_ids: null,
      collection_ids: [],
      target_account: context.present.account(person),
    };
  });
}
