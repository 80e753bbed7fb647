import { Navigate } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { PostSkeletons } from '../../components/states.tsx';
import { NotificationList } from '../../features/notifications/components/notification-list.tsx';
import { useSession } from '../../lib/session.tsx';

/** Members only: visitors go home with the login modal (and come back here once signed in). */
export function NotificationsPage() {
  const { status } = useSession();
  if (status === 'unauthenticated') {
    return <Navigate to={`/?callbackUrl=${encodeURIComponent('/notifications')}`} replace />;
  }
  return (
    <>
      <title>Notifications / Pipit</title>
      <PageHeader title="Notifications" />
      {status === 'loading' ? <PostSkeletons /> : <NotificationList />}
    </>
  );
}
