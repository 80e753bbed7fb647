import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SignInRequired } from '../../components/sign-in-required.tsx';
import { Spinner } from '../../components/states.tsx';
import { ScheduledList } from '../../features/compose/components/scheduled-list.tsx';
import { t } from '../../i18n/i18n.ts';
import { localTimeZone } from '../../lib/schedule-time.ts';
import { useViewer } from '../../state/viewer.tsx';

/** The viewer's scheduled posts: edit (text, time) or cancel; members only. */
export function ScheduledPage() {
  const { status } = useViewer();
  return (
    <>
      <PageTitle>{t('Scheduled')}</PageTitle>
      <PageHeader title={t('Scheduled')} subtitle={t('Times in {zone}', { zone: localTimeZone() })} />
      {status === 'loading' ? (
        <Spinner label={t('Loading your scheduled posts')} />
      ) : status === 'unauthenticated' ? (
        <SignInRequired title={t('Sign in to see your scheduled posts')}>
          {t('Posts you schedule wait here until their time.')}
        </SignInRequired>
      ) : (
        <ScheduledList />
      )}
    </>
  );
}
