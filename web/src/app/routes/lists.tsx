import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SignInRequired } from '../../components/sign-in-required.tsx';
import { EmptyState, ErrorState, Spinner } from '../../components/states.tsx';
import { CreateListForm } from '../../features/lists/components/create-list-form.tsx';
import { ListRow } from '../../features/lists/components/list-row.tsx';
import { t } from '../../i18n/i18n.ts';
import { useMyLists } from '../../state/lists.ts';
import { useViewer } from '../../state/viewer.tsx';

function MyLists() {
  const lists = useMyLists();
  if (lists.isPending) return <Spinner label={t('Loading your lists')} />;
  if (lists.isError) return <ErrorState message={t('Couldn’t load your lists.')} onRetry={() => lists.refetch()} />;
  if (lists.data.length === 0) {
    return (
      <EmptyState title={t('No lists yet')}>
        {t(
          'Put people you follow into lists to read them apart from Home: a list of friends, of birders, of news. Only you see your lists.',
        )}
      </EmptyState>
    );
  }
  return (
    <ul aria-label={t('Your lists')}>
      {lists.data.map((list) => (
        <ListRow key={list.id} list={list} />
      ))}
    </ul>
  );
}

/** The viewer's lists, and a form to make one; members only. */
export function ListsPage() {
  const { status, user } = useViewer();
  return (
    <>
      <PageTitle>{t('Lists')}</PageTitle>
      <PageHeader title={t('Lists')} subtitle={user ? `@${user.username}` : undefined} />
      {status === 'loading' ? (
        <Spinner label={t('Loading your lists')} />
      ) : status === 'unauthenticated' ? (
        <SignInRequired title={t('Sign in to see your lists')}>
          {t('Lists keep the people you follow in groups, each with its own timeline.')}
        </SignInRequired>
      ) : (
        <>
          <CreateListForm />
          <MyLists />
        </>
      )}
    </>
  );
}
