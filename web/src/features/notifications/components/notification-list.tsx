import { useEffect, useMemo, useRef } from 'react';
import { ListFooter } from '../../../components/list-footer.tsx';
import { EmptyState, ErrorState, PostSkeletons } from '../../../components/states.tsx';
import { t } from '../../../i18n/i18n.ts';
import { useNotifications } from '../../../state/notifications.ts';
import { pageItems } from '../../../state/paged.ts';
import { useMarkNotificationsRead } from '../api/mark-notifications-read.ts';
import { NotificationItem } from './notification-item.tsx';

/**
 * The notifications, newest first. Once the first page has arrived everything is marked read
 * (the dot clears), and again when a new one arrives live; what was unread stays highlighted while
 * the page is open.
 */
export function NotificationList() {
  const query = useNotifications();
  const markRead = useMarkNotificationsRead();
  const marked = useRef<string | null>(null);
  const unreadIds = useRef<Set<string> | null>(null);

  const items = useMemo(() => pageItems(query.data), [query.data]);

  if (query.data && !unreadIds.current) {
    unreadIds.current = new Set(items.filter((n) => !n.read).map((n) => n.id));
  }

  // Marks read once the first page is here, and again when a newer one arrives live while open.
  const newest = items[0]?.id;
  const { mutate } = markRead;
  useEffect(() => {
    if (newest !== undefined && marked.current !== newest) {
      marked.current = newest;
      mutate();
    }
  }, [newest, mutate]);

  if (query.isPending) return <PostSkeletons />;
  if (query.isError && !query.data) {
    return <ErrorState message={t('Couldn’t load your notifications.')} onRetry={() => query.refetch()} />;
  }
  if (items.length === 0) {
    return (
      <EmptyState title={t('No notifications yet')}>
        {t('Likes, replies, mentions and new followers will show up here.')}
      </EmptyState>
    );
  }
  return (
    <section aria-label={t('Notifications list')}>
      {items.map((notification) => (
        <NotificationItem
          key={notification.id}
          notification={notification}
          unread={!notification.read || Boolean(unreadIds.current?.has(notification.id))}
        />
      ))}
      <ListFooter query={query} noun={t('notifications')} />
    </section>
  );
}
