import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock.ts';
import { call } from './api-client.ts';
import { forgetEarly, rememberSignedIn, takeEarly } from './early.ts';
import { getSession } from './session.ts';

type EarlyWindow = Window & { __pipitEarly?: Record<string, Promise<Response>> };
const early = (answers: Record<string, unknown>) => {
  (window as EarlyWindow).__pipitEarly = Object.fromEntries(
    Object.entries(answers).map(([url, body]) => [url, Promise.resolve(json(body))]),
  );
};

afterEach(() => forgetEarly());

describe('early answers (index.html boot script)', () => {
  it('answer the first call of their URL, once', async () => {
    const posts = { items: [], nextCursor: 'c1' };
    early({ '/api/timeline/everyone': posts });
    const fetchMock = mockFetch({ 'GET /api/timeline/everyone': () => json({ items: [], nextCursor: null }) });
    expect(await call('timelineEveryone', { query: { cursor: undefined } })).toEqual(posts);
    expect(fetchMock.calls).toHaveLength(0);
    expect(await call('timelineEveryone', { query: { cursor: undefined } })).toEqual({ items: [], nextCursor: null });
    expect(fetchMock.calls).toHaveLength(1);
  });

  it('stand in for the session request of the auth protocol', async () => {
    const session = { user: { name: 'Ada', email: 'ada@example.com', image: null }, expires: '2030-01-01T00:00:00Z' };
    early({ '/api/auth/session': session });
    const fetchMock = mockFetch({});
    expect(await getSession()).toEqual(session);
    expect(fetchMock.calls).toHaveLength(0);
  });

  it('are not used for another URL, nor after the first seconds, nor once forgotten', () => {
    early({ '/api/timeline/following': { items: [], nextCursor: null } });
    expect(takeEarly('/api/timeline/everyone')).toBeUndefined();
    vi.spyOn(performance, 'now').mockReturnValue(60_000);
    expect(takeEarly('/api/timeline/following')).toBeUndefined();
    vi.restoreAllMocks();
    early({ '/api/timeline/following': { items: [], nextCursor: null } });
    forgetEarly();
    expect(takeEarly('/api/timeline/following')).toBeUndefined();
  });

  it('the signed-in hint the boot script reads', () => {
    rememberSignedIn(true);
    expect(localStorage.getItem('pipit.member')).toBe('1');
    rememberSignedIn(false);
    expect(localStorage.getItem('pipit.member')).toBeNull();
  });
});
