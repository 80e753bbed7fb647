import { endpoints as e, MAX_MUTED_WORDS } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { notFound } from '../../lib/errors.ts';
import { parseId, parseUserId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';

/** Blocks, mutes and muted words (errors: the contract's endpoint table). */
export const safetyRoutes: FastifyPluginAsync = async (app) => {
  const { safety } = app.services;

  route(app, e.block, {}, async (request) => safety.block(requireViewer(request), parseUserId(request.params.id)));
  route(app, e.unblock, {}, async (request) => safety.unblock(requireViewer(request), parseUserId(request.params.id)));
  route(app, e.mute, {}, async (request) =>
    safety.mute(requireViewer(request), parseUserId(request.params.id), request.body.durationSeconds),
  );
  route(app, e.unmute, {}, async (request) => safety.unmute(requireViewer(request), parseUserId(request.params.id)));
  route(app, e.blocks, {}, async (request) => safety.blocked(requireViewer(request), request.query));
  route(app, e.mutes, {}, async (request) => safety.muted(requireViewer(request), request.query));
  route(app, e.mutedWords, {}, async (request) => safety.mutedWords(requireViewer(request)));
  route(app, e.addMutedWord, {}, async (request) =>
    safety.addMutedWord(requireViewer(request), request.body.phrase, MAX_MUTED_WORDS),
  );
  route(app, e.removeMutedWord, {}, async (request) => {
    await safety.removeMutedWord(
      requireViewer(request),
      parseId(request.params.id, () => notFound('No such muted word.')),
    );
    return null;
  });
};
