import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { parseUserId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';
import { parseListId } from './lists.service.ts';

/** The member's lists, their members and timelines (errors: the contract's endpoint table). */
export const listsRoutes: FastifyPluginAsync = async (app) => {
  const { lists } = app.services;
  const listOf = (request: { params: { id: string } }) => parseListId(request.params.id);

  route(app, e.lists, {}, async (request) => ({ items: await lists.all(requireViewer(request)) }));
  route(app, e.createList, {}, async (request) => lists.create(requireViewer(request), request.body));
  route(app, e.list, {}, async (request) => lists.get(requireViewer(request), listOf(request)));
  route(app, e.updateList, {}, async (request) => lists.update(requireViewer(request), listOf(request), request.body));
  route(app, e.deleteList, {}, async (request) => {
    await lists.remove(requireViewer(request), listOf(request));
    return null;
  });
  route(app, e.listPosts, {}, async (request) =>
    lists.timeline(requireViewer(request), listOf(request), request.query),
  );
  route(app, e.listMembers, {}, async (request) =>
    lists.members(requireViewer(request), listOf(request), request.query),
  );
  route(app, e.addListMember, {}, async (request) => {
    const userId = parseUserId(request.params.userId);
    const [person] = await lists.addMembers(requireViewer(request), listOf(request), [userId]);
    if (!person) throw lists.unknownPerson();
    return person;
  });
  route(app, e.removeListMember, {}, async (request) => {
    const userId = parseUserId(request.params.userId);
    const [person] = await lists.removeMembers(requireViewer(request), listOf(request), [userId]);
    if (!person) throw lists.unknownPerson();
    return person;
  });
  route(app, e.listCandidates, {}, async (request) => ({
    items: await lists.candidates(requireViewer(request), listOf(request), request.query.q),
  }));
};
