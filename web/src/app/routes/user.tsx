import { Navigate, useParams } from 'react-router';
import { NotFound } from '../../components/not-found.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { EmptyState, ErrorState, PostSkeletons } from '../../components/states.tsx';
import { PostList } from '../../features/posts/components/post-list.tsx';
import { ProfileHeader } from '../../features/profile/components/profile-header.tsx';
import { ProfileMenu } from '../../features/safety/components/profile-menu.tsx';
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
      label={`Posts by ${name}`}
      empty={
        own ? (
          <EmptyState title="You haven’t posted yet">When you post, it will show up here.</EmptyState>
        ) : (
          <EmptyState title="No posts yet">When they post, it will show up here.</EmptyState>
        )
      }
    />
  );
}

function ProfileView({ id }: { id: string }) {
  const user = useUser(id);
  const { user: me } = useViewer();
  if (user.isError && isNotFound(user.error)) return <NotFound message="This account doesn’t exist." />;
  if (user.isPending || user.isError) {
    return (
      <>
        <PageHeader title="Profile" back />
        {user.isPending ? (
          <PostSkeletons count={2} />
        ) : (
          <ErrorState message="Couldn’t load this profile." onRetry={() => user.refetch()} />
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
          data.suspended ? 'Suspended' : `${formatCount(data.postsCount)} ${data.postsCount === 1 ? 'post' : 'posts'}`
        }
        back
      />
      <ProfileHeader user={data} menu={<ProfileMenu user={data} />} />
      {data.suspended ? (
        <EmptyState title="This account is suspended">
          A moderator suspended @{data.username} for breaking the rules. Their posts are not shown.
        </EmptyState>
      ) : data.isBlocking ? (
        <EmptyState title={`You blocked @${data.username}`}>
          You don’t see their posts, and they don’t see yours. Unblock them from the More menu.
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
  if (found.isError && isNotFound(found.error)) return <NotFound message="This account doesn’t exist." />;
  return (
    <>
      <PageHeader title={`@${username}`} back />
      {found.isError ? (
        <ErrorState message="Couldn’t load this profile." onRetry={() => found.refetch()} />
      ) : (
        <PostSkeletons count={2} />
      )}
    </>
  );
}

export function UserPage() {
  const { id = '' } = useParams();
  if (id.startsWith('@') && id.length > 1) return <ByUsername username={id.slice(1)} />;
  if (!isId(id)) return <NotFound message="This account doesn’t exist." />;
  return <ProfileView key={id} id={id} />;
}
