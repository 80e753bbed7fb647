import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/button.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { EmptyState, PostSkeletons } from '../../components/states.tsx';
import { NotificationList } from '../../features/notifications/components/notification-list.tsx';
import { openModal } from '../../lib/modals.ts';
import { useViewer } from '../../state/viewer.tsx';

/**
 * The seed's "required session missing": the sign-in page with `error=SessionRequired` and the
 * callbackUrl. Pipit's sign-in page is the Login modal over the page that needs it (the URL stays
 * here, so signing out on this page stays here too); once signed in, the page shows.
 */
function SignInRequired() {
  const navigate = useNavigate();
  const location = useLocation();
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    const params = new URLSearchParams(location.search);
    if (params.get('error') === 'SessionRequired') return;
    params.set('callbackUrl', `${window.location.origin}${location.pathname}`);
    params.set('error', 'SessionRequired');
    navigate({ search: `?${params}` }, { replace: true });
  }, [navigate, location]);

  return (
    <EmptyState
      title="Sign in to see your notifications"
      action={<Button onClick={() => openModal('login')}>Sign in</Button>}
    >
      Likes, replies, mentions and new followers show up here once you’re signed in.
    </EmptyState>
  );
}

export function NotificationsPage() {
  const { status } = useViewer();
  return (
    <>
      <PageTitle>Notifications</PageTitle>
      <PageHeader title="Notifications" />
      {status === 'loading' ? (
        <PostSkeletons />
      ) : status === 'unauthenticated' ? (
        <SignInRequired />
      ) : (
        <NotificationList />
      )}
    </>
  );
}
