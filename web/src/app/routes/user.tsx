import { Navigate, useParams } from 'react-router';
import { NotFound } from '../../components/not-found.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { EmptyState, ErrorState, PostSkeletons } from '../../components/states.tsx';
import { PostList } from '../../features/posts/components/post-list.tsx';
import { ProfileHeader } from '../../features/profile/components/profile-header.tsx';
import { ProfileMenu } from '../../features/safety/components/profile-menu.tsx';
import { t } from '../../i18n/i18n.ts';
import { isNotFound } from '../../lib/api-client.ts';
import { formatCount } from '../../lib/format-time.ts';
import { handleOf } from '../../lib/handle.ts';
import { isId } from '../../lib/ids.ts';
import { paths } from '../../lib/paths.ts';
import { useUserPosts } from '../../state/posts.ts';
import { useUser, useUserByUsername } from '../../state/users.ts';
import { useViewer } from '../../state/viewer.tsx';

function UserPosts({ id, name, own }: { id: string; name: string; own: boolean }) {
  const posts = useUserPosts(id);
  return (
    <PostList
      query={posts}
      label={t('Posts by {name}', { name })}
      empty={
        own ? (
          <EmptyState title={t('You haven’t posted yet')}>{t('When you post, it will show up here.')}</EmptyState>
        ) : (
          <EmptyState title={t('No posts yet')}>{t('When they post, it will show up here.')}</EmptyState>
        )
      }
    />
  );
}

function ProfileView({ id }: { id: string }) {
  const user = useUser(id);
  const { user: me } = useViewer();
  if (user.isError && isNotFound(user.error)) return <NotFound message={t('This account doesn’t exist.')} />;
  if (user.isPending || user.isError) {
    return (
      <>
        <PageHeader title={t('Profile')} back />
        {user.isPending ? (
          <PostSkeletons count={2} />
        ) : (
          <ErrorState message={t('Couldn’t load this profile.')} onRetry={() => user.refetch()} />
        )}
      </>
    );
  }
  const { data } = user;
  return (
    <>
      <PageTitle>{`${data.name} (${handleOf(data)})`}</PageTitle>
      <PageHeader
        title={data.name}
        subtitle={
          data.suspended
            ? t('Suspended')
            : t('{count, plural, one {{shown} post} other {{shown} posts}}', {
                count: data.postsCount,
                shown: formatCount(data.postsCount),
              })
        }
        back
      />
      <ProfileHeader user={data} menu={<ProfileMenu user={data} />} />
      {data.suspended ? (
        <EmptyState title={t('This account is suspended')}>
          {t('A moderator suspended @{username} for breaking the rules. Their posts are not shown.', {
            username: data.username,
          })}
        </EmptyState>
      ) : data.isBlocking ? (
        <EmptyState title={t('You blocked @{username}', { username: data.username })}>
          {t('You don’t see their posts, and they don’t see yours. Unblock them from the More menu.')}
        </EmptyState>
      ) : (
        <UserPosts id={id} name={data.name} own={me?.id === id} />
      )}
    </>
  );
}

/** `/users/@name`, from a mention: finds the person, then shows their profile at its canonical address. */
function ByUsername({ username }: { username: string }) {
  const found = useUserByUsername(username);
  if (found.data) return <Navigate to={paths.user(found.data.id)} replace />;
  if (found.isError && isNotFound(found.error)) return <NotFound message={t('This account doesn’t exist.')} />;
  return (
    <>
      <PageHeader title={`@${username}`} back />
      {found.isError ? (
        <ErrorState message={t('Couldn’t load this profile.')} onRetry={() => found.refetch()} />
      ) : (
        <PostSkeletons count={2} />
      )}
    </>
  );
}

export function UserPage() {
  const { id = '' } = useParams();
  if (id.startsWith('@') && id.length > 1) return <ByUsername username={id.slice(1)} />;
  if (!isId(id)) return <NotFound message={t('This account doesn’t exist.')} />;
  return <ProfileView key={id} id={id} />;
}
