import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import serverPackage from '../../../package.json' with { type: 'json' };
import { toInstance } from './instance.presenter.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { route, userOf } from './mastodon.http.ts';

/** The instance: what apps read first (its name, version, limits, streaming URL). */
export async function instanceRoutes(app: FastifyInstance, { config }: MastodonContext) {
  // This server's version (its package.json's; the build inlines it). Built once: it never changes.
  const instance = toInstance(config, serverPackage.version, app.services.push.vapidPublicKey);
  route(app, e.instanceV2, async () => instance.v2);
  route(app, e.instanceV1, async () => instance.v1);
  for (const empty of [e.instanceRules, e.instanceActivity, e.customEmojis]) {
    route(app, empty, async () => []);
  }
  // The servers Pipit knows people on (blocked ones left out), as Mastodon lists its peers.
  route(app, e.instancePeers, async () => app.services.domainBlocks.peers());
  // The servers an admin blocked, by name, for people signed in (Mastodon's "users" setting): the reason is
  // the moderators' own, so it is not shown; every block here suspends (a whole server cut off).
  route(app, e.instanceDomainBlocks, async (request) => {
    userOf(request);
    return (await app.services.domainBlocks.names()).map((domain) => ({
      domain,
      digest: createHash('sha256').update(domain).digest('hex'),
      severity: 'suspend',
    }));
  });
}
