import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { t } from '../i18n/i18n.ts';
import { InfiniteSentinel } from './infinite-sentinel.tsx';
import { ErrorState, Spinner } from './states.tsx';

interface ListFooterProps {
  query: Pick<UseInfiniteQueryResult, 'hasNextPage' | 'isFetchingNextPage' | 'isFetchNextPageError' | 'fetchNextPage'>;
  /** What the list holds, plural: "posts", "notifications". */
  noun: string;
}

/**
 * The end of every cursor-paged list: asks for the next page before the reader gets there, shows
 * that it is coming, and offers a retry when it could not come.
 */
export function ListFooter({ query, noun }: ListFooterProps) {
  return (
    <>
      <InfiniteSentinel
        enabled={query.hasNextPage && !query.isFetchingNextPage && !query.isFetchNextPageError}
        onVisible={() => query.fetchNextPage()}
      />
      {query.isFetchingNextPage && <Spinner label={t('Loading more {noun}', { noun })} />}
      {query.isFetchNextPageError && (
        <ErrorState message={t('Couldn’t load more {noun}.', { noun })} onRetry={() => query.fetchNextPage()} />
      )}
    </>
  );
}
