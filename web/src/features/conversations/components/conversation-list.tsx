import { useMemo } from 'react';
import { ListFooter } from '../../../components/list-footer.tsx';
import { EmptyState, ErrorState, PostSkeletons } from '../../../components/states.tsx';
import { t } from '../../../i18n/i18n.ts';
import { useConversations } from '../../../state/conversations.ts';
import { pageItems } from '../../../state/paged.ts';
import { ConversationItem } from './conversation-item.tsx';

/** The member's conversations, the latest first; the live stream brings new ones in (state/live.tsx). */
export function ConversationList({ viewerId }: { viewerId: string }) {
  const query = useConversations();
  const items = useMemo(() => pageItems(query.data), [query.data]);

  if (query.isPending) return <PostSkeletons />;
  if (query.isError && !query.data) {
    return <ErrorState message={t('Couldn’t load your messages.')} onRetry={() => query.refetch()} />;
  }
  if (items.length === 0) {
    return (
      <EmptyState title={t('No conversations yet')}>
        {t('Posts you send to mentioned people only appear here.')}
      </EmptyState>
    );
  }
  return (
    <section aria-label={t('Conversations')}>
      {items.map((conversation) => (
        <ConversationItem key={conversation.id} conversation={conversation} viewerId={viewerId} />
      ))}
      <ListFooter query={query} noun={t('conversations')} />
    </section>
  );
}
