import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths, patterns } from '../lib/paths.ts';
import { routes } from './router.tsx';

/** Every `path` the router mounts, depth first. */
const mounted = (list: RouteObject[]): string[] =>
  list.flatMap((route) => [...(route.path ? [route.path] : []), ...mounted(route.children ?? [])]);

describe('route paths', () => {
  it('mounts exactly the pages of the paths table, and the not-found page', () => {
    expect(mounted(routes).sort()).toEqual([...Object.values(patterns), '*'].sort());
  });

  it('builds every address so that the router takes it to its own page, with the same params', () => {
    const cases: Array<[string, string, Record<string, string>]> = [
      [patterns.home, paths.home, {}],
      [patterns.notifications, paths.notifications, {}],
      [patterns.bookmarks, paths.bookmarks, {}],
      [patterns.lists, paths.lists, {}],
      [patterns.list, paths.list('l1'), { id: 'l1' }],
      [patterns.settings, paths.settings, {}],
      [patterns.moderation, paths.moderation, {}],
      [patterns.oauthAuthorize, paths.oauthAuthorize, {}],
      [patterns.resetPassword, paths.resetPassword, {}],
      [patterns.search, paths.search('cats', 'people'), {}],
      [patterns.user, paths.user('u1'), { id: 'u1' }],
      [patterns.user, paths.mention('alice'), { id: '@alice' }],
      [patterns.followers, paths.followers('u1'), { id: 'u1' }],
      [patterns.following, paths.following('u1'), { id: 'u1' }],
      [patterns.post, paths.post('p1'), { id: 'p1' }],
      [patterns.hashtag, paths.hashtag('café#1'), { tag: 'café#1' }],
    ];
    for (const [pattern, address, params] of cases) {
      const page = matchRoutes(routes, address)?.at(-1);
      expect(page?.route.path, address).toBe(pattern);
      expect(page?.params, address).toEqual(params);
    }
    expect(paths.search('cats', 'people')).toBe('/search?q=cats&tab=people');
    expect(paths.search()).toBe('/search');
  });
});
