import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { parseId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';
import { conversationNotFound } from './conversations.service.ts';

/**
 * The signed-in person's conversations (direct posts and their replies). Reading the list changes
 * nothing; marking one read and removing one are explicit writes. Errors: the contract's endpoint table.
 */
export const conversationsRoutes: FastifyPluginAsync = async (app) => {
  const { conversations } = app.services;
  const idOf = (raw: string) => parseId(raw, conversationNotFound);

  route(app, e.conversations, {}, async (request) => conversations.list(requireViewer(request), request.query));
  route(app, e.unreadConversations, {}, async (request) => conversations.unreadCount(requireViewer(request)));
  route(app, e.readConversation, {}, async (request) => {
    await conversations.read(requireViewer(request), idOf(request.params.id));
    return null;
  });
  route(app, e.removeConversation, {}, async (request) => {
    await conversations.remove(requireViewer(request), idOf(request.params.id));
    return null;
  });
};
