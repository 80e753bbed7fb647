import type { Notification } from '@pipit/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.ts';
import { makePost, makeUserSummary } from '../../../test/fixtures.ts';
import { renderApp, signedInRoutes } from '../../../test/render.tsx';
import { NotificationItem } from './notification-item.tsx';

const BOB = makeUserSummary({ id: '2', name: 'Bob Builder', username: 'bob' });
const WARNED = makePost({
  id: '10',
  text: 'The butler did it',
  spoilerText: 'Film ending',
  sensitive: true,
  author: BOB,
});

describe('notifications and titles never show the hidden text', () => {
  const update = (repostedByMe: boolean): Notification => ({
    id: '1',
    type: 'update',
    createdAt: new Date().toISOString(),
    read: false,
    actor: BOB,
    post: { ...WARNED, repostedByMe },
  });

  it('an edit of a post one reposted or quoted says so, with the warning in place of the text', () => {
    mockFetch({ ...signedInRoutes() });
    renderApp(
      <>
        <NotificationItem notification={update(true)} unread />
        <NotificationItem notification={update(false)} unread={false} />
      </>,
    );
    const [reposted, quoted] = screen.getAllByRole('article') as [HTMLElement, HTMLElement];
    expect(reposted).toHaveTextContent('Bob Builder edited a post you reposted');
    expect(quoted).toHaveTextContent('Bob Builder edited a post you quoted');
    for (const item of [reposted, quoted]) {
      expect(item).toHaveTextContent('Content warning: Film ending');
      expect(item).not.toHaveTextContent('The butler did it');
    }
  });
});
