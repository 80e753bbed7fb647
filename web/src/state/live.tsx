import type { LiveEvent } from '@pipit/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { connectLive } from '../lib/live.ts';
import { conversationsChanged } from './conversations.ts';
import { notificationKeys } from './keys.ts';
import { notificationsChanged, notificationsRead } from './notifications.ts';
import { pollCountsChanged, postArrived, postCardArrived, postEdited, postRemoved, postsMissed } from './posts.ts';
import { useSessionIdentity } from './viewer.tsx';

/**
 * Keeps the caches current from the live stream: each pushed event goes to the same event function
 * a mutation calls (state/posts.ts, state/notifications.ts). The stream is opened again when the
 * person behind the session changes (it was authorised by the old cookie).
 */
export function LiveSync() {
  const queryClient = useQueryClient();
  const identity = useSessionIdentity();

  useEffect(() => {
    if (identity === undefined) return;
    return connectLive((event: LiveEvent) => {
      switch (event.type) {
        case 'post.created':
          postArrived(queryClient, event.post, event.timelines, event.lists);
          break;
        case 'post.updated':
          postEdited(queryClient, event.post);
          break;
        case 'post.card':
          postCardArrived(queryClient, event.post.id, event.post.card);
          break;
        case 'post.deleted':
          postRemoved(queryClient, { id: event.id, parentId: event.parentId, author: { id: event.authorId } });
          // A conversation may have shown it as its last post (only an open Messages page asks again).
          void conversationsChanged(queryClient);
          break;
        case 'poll':
          pollCountsChanged(queryClient, event.postId, event);
          break;
        case 'notification':
          void notificationsChanged(queryClient);
          queryClient.invalidateQueries({ queryKey: notificationKeys.all });
          break;
        case 'notifications.read':
          void notificationsRead(queryClient);
          break;
        case 'conversation':
          void conversationsChanged(queryClient);
          break;
        case 'reset':
          postsMissed(queryClient);
          void notificationsChanged(queryClient);
          void conversationsChanged(queryClient);
          break;
      }
    });
  }, [identity, queryClient]);
  return null;
}
