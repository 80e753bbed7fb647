import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SignInRequired } from '../../components/sign-in-required.tsx';
import { Spinner } from '../../components/states.tsx';
import { DraftsList } from '../../features/compose/components/drafts-list.tsx';
import { t } from '../../i18n/i18n.ts';
import { useViewer } from '../../state/viewer.tsx';

/** The viewer's drafts: resume (the composer opens filled) or delete; members only. */
export function DraftsPage() {
  const { status, user } = useViewer();
  return (
    <>
      <PageTitle>{t('Drafts')}</PageTitle>
      <PageHeader title={t('Drafts')} subtitle={user ? `@${user.username}` : undefined} />
      {status === 'loading' ? (
        <Spinner label={t('Loading your drafts')} />
      ) : status === 'unauthenticated' ? (
        <SignInRequired title={t('Sign in to see your drafts')}>
          {t('Posts you save as drafts wait here until you send them.')}
        </SignInRequired>
      ) : (
        <DraftsList />
      )}
    </>
  );
}
