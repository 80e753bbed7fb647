import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SignInRequired } from '../../components/sign-in-required.tsx';
import { Spinner } from '../../components/states.tsx';
import { ScheduledList } from '../../features/compose/components/scheduled-list.tsx';
import { localTimeZone } from '../../lib/schedule-time.ts';
import { useViewer } from '../../state/viewer.tsx';

/** The viewer's scheduled posts: edit (text, time) or cancel; members only. */
export function ScheduledPage() {
  const { status } = useViewer();
  return (
    <>
      <PageTitle>Scheduled</PageTitle>
      <PageHeader title="Scheduled" subtitle={`Times in ${localTimeZone()}`} />
      {status === 'loading' ? (
        <Spinner label="Loading your scheduled posts" />
      ) : status === 'unauthenticated' ? (
        <SignInRequired title="Sign in to see your scheduled posts">
          Posts you schedule wait here until their time.
        </SignInRequired>
      ) : (
        <ScheduledList />
      )}
    </>
  );
}
