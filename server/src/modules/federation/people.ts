import type { User } from '@pipit/contract';
import type { FastifyInstance } from 'fastify';
import { unauthenticated } from '../../lib/errors.ts';
import type { Viewer } from '../sessions/sessions.service.ts';
import { parseHandle } from './lookup.ts';

/**
 * A people search's handle (the web's and the Mastodon API's alike): `@user@this-server` is a member's
 * username (`{ q }` to search instead), `@user@elsewhere` that one person — looked up at their server
 * when `resolve` is asked (members only: a visitor's is refused, as Mastodon does), else as already
 * known (`{ people }`). Anything else, or federation off: `{ q }` unchanged.
 */
export async function peopleByHandle(
  app: FastifyInstance,
  viewer: Viewer,
  q: string,
  resolve: boolean,
): Promise<{ q: string } | { people: User[] }> {
  if (resolve && !viewer) throw unauthenticated();
  const federation = app.federation;
  const handle = federation ? parseHandle(q) : null;
  if (!federation || !handle) return { q };
  if (federation.isLocal(handle)) return { q: handle.username };
  const id = resolve ? await federation.resolve(handle) : await federation.known(handle);
  return { people: id === null ? [] : await app.services.users.many(viewer, [id]) };
}
