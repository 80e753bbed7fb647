import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SignInRequired } from '../../components/sign-in-required.tsx';
import { Spinner } from '../../components/states.tsx';
import { DraftsList } from '../../features/compose/components/drafts-list.tsx';
import { useViewer } from '../../state/viewer.tsx';

/** The viewer's drafts: resume (the composer opens filled) or delete; members only. */
export function DraftsPage() {
  const { status, user } = useViewer();
  return (
    <>
      <PageTitle>Drafts</PageTitle>
      <PageHeader title="Drafts" subtitle={user ? `@${user.username}` : undefined} />
      {status === 'loading' ? (
        <Spinner label="Loading your drafts" />
      ) : status === 'unauthenticated' ? (
        <SignInRequired title="Sign in to see your drafts">
          Posts you save as drafts wait here until you send them.
        </SignInRequired>
      ) : (
        <DraftsList />
      )}
    </>
  );
}
