import type { Conversation } from '@pipit/contract';
import type { FastifyInstance } from 'fastify';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { idOf, keyedPage, route, userOf } from './mastodon.http.ts';

const MISSING = 'Record not found';

/**
 * Conversations (direct posts and their replies), the latest first, paged as Mastodon pages them: by
 * their last status's id (max_id, since_id, min_id and the Link header); read one, remove one.
 */
export async function conversationsRoutes(app: FastifyInstance, { config, present }: MastodonContext) {
  const { conversations } = app.services;

  route(app, e.conversations, async (request, reply) => {
    const viewer = userOf(request);
    const items = await keyedPage(request, reply, config.publicUrl, {
      read: (page) => conversations.list(viewer, page),
      keyOf: (c: Conversation) => BigInt(c.lastPost.id),
      cursorBelow: (id) => conversations.cursorAtPost(id),
      limit: { fallback: 20, max: 40 },
    });
    return present.conversations(viewer, items);
  });

  route(app, e.readConversation, async (request, _reply, { params }) => {
    const viewer = userOf(request);
    const id = idOf(params.id ?? '', MISSING);
    await conversations.read(viewer, id);
    const shown = await conversations.get(viewer, id);
    // Read, but nothing in it is left for them to see (deleted, or hidden by a block since).
    if (!shown) return { id: String(id), unread: false, accounts: [], last_status: null };
    const [conversation] = await present.conversations(viewer, [shown]);
    return conversation;
  });

  route(app, e.removeConversation, async (request, _reply, { params }) => {
    await conversations.remove(userOf(request), idOf(params.id ?? '', MISSING));
    return {};
  });
}
