import type { FastifyInstance } from 'fastify';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { route } from './mastodon.http.ts';

/**
 * What Pipit does not have yet answers well-formed and empty, behind its scope: apps ask for these
 * at start and on every screen, and a 404 makes many of them fail whole pages.
 */
export async function emptyRoutes(app: FastifyInstance) {
  for (const endpoint of [
    e.filtersV1,
    e.filters,
    e.announcements,
    e.suggestionsV2,
    e.suggestions,
    e.trends,
    e.trendingTags,
    e.trendingStatuses,
    e.trendingLinks,
    e.domainBlocks,
    e.endorsements,
    e.featuredTags,
  ]) {
    route(app, endpoint, async () => []);
  }
}
