import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SignInRequired } from '../../components/sign-in-required.tsx';
import { PostSkeletons } from '../../components/states.tsx';
import { NotificationList } from '../../features/notifications/components/notification-list.tsx';
import { t } from '../../i18n/i18n.ts';
import { useViewer } from '../../state/viewer.tsx';

export function NotificationsPage() {
  const { status } = useViewer();
  return (
    <>
      <PageTitle>{t('Notifications')}</PageTitle>
      <PageHeader title={t('Notifications')} />
      {status === 'loading' ? (
        <PostSkeletons />
      ) : status === 'unauthenticated' ? (
        <SignInRequired title={t('Sign in to see your notifications')}>
          {t('Likes, replies, mentions and new followers show up here once you’re signed in.')}
        </SignInRequired>
      ) : (
        <NotificationList />
      )}
    </>
  );
}
