import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SignInRequired } from '../../components/sign-in-required.tsx';
import { PostSkeletons } from '../../components/states.tsx';
import { ConversationList } from '../../features/conversations/components/conversation-list.tsx';
import { t } from '../../i18n/i18n.ts';
import { useViewer } from '../../state/viewer.tsx';

export function MessagesPage() {
  const { status, user } = useViewer();
  return (
    <>
      <PageTitle>{t('Messages')}</PageTitle>
      <PageHeader title={t('Messages')} />
      {status === 'loading' || (status === 'authenticated' && !user) ? (
        <PostSkeletons />
      ) : status === 'unauthenticated' || !user ? (
        <SignInRequired title={t('Sign in to see your messages')}>
          {t('Posts for mentioned people only, and their replies, show up here once you’re signed in.')}
        </SignInRequired>
      ) : (
        <ConversationList viewerId={user.id} />
      )}
    </>
  );
}
