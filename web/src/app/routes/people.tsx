import type { User } from '@pipit/contract';
import { useMemo } from 'react';
import { NavLink, useParams } from 'react-router';
import { ListFooter } from '../../components/list-footer.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { EmptyState, ErrorState, PostSkeletons } from '../../components/states.tsx';
import { TabLabel } from '../../components/tabs.tsx';
import { PersonRow } from '../../features/profile/components/person-row.tsx';
import { isNotFound } from '../../lib/api-client.ts';
import { isId } from '../../lib/ids.ts';
import { paths } from '../../lib/paths.ts';
import type { PeopleKind } from '../../state/keys.ts';
import { pageItems } from '../../state/paged.ts';
import { usePeople, useUser } from '../../state/users.ts';
import { useViewer } from '../../state/viewer.tsx';

const TABS: Array<{ which: PeopleKind; label: string; to: (id: string) => string }> = [
  { which: 'followers', label: 'Followers', to: paths.followers },
  { which: 'following', label: 'Following', to: paths.following },
];

/** Followers and Following of one person: links to the two pages, styled as the timeline's tabs. */
function PeopleTabs({ id }: { id: string }) {
  return (
    <nav aria-label="People" className="flex">
      {TABS.map((tab) => (
        <NavLink
          key={tab.which}
          to={tab.to(id)}
          replace
          end
          className="group flex h-[53px] flex-1 justify-center hover:bg-fg/10"
        >
          {({ isActive }) => <TabLabel label={tab.label} current={isActive} />}
        </NavLink>
      ))}
    </nav>
  );
}

function PeopleList({ id, which, name, own }: { id: string; which: PeopleKind; name: string; own: boolean }) {
  const query = usePeople(id, which);
  const people = useMemo(() => pageItems<User>(query.data), [query.data]);

  if (query.isPending) return <PostSkeletons />;
  if (query.isError && !query.data) {
    return <ErrorState message="Couldn’t load these people." onRetry={() => query.refetch()} />;
  }
  if (people.length === 0) {
    return which === 'followers' ? (
      <EmptyState title={own ? 'You don’t have followers yet' : 'No followers yet'}>
        {own
          ? 'When someone follows you, they’ll be listed here.'
          : `When someone follows ${name}, they’ll be listed here.`}
      </EmptyState>
    ) : (
      <EmptyState title={own ? 'You aren’t following anyone yet' : 'Not following anyone yet'}>
        {own
          ? 'When you follow someone, they’ll be listed here.'
          : `When ${name} follows someone, they’ll be listed here.`}
      </EmptyState>
    );
  }
  return (
    <section aria-label={which === 'followers' ? `Followers of ${name}` : `People ${name} follows`}>
      <ul>
        {people.map((person) => (
          <PersonRow key={person.id} person={person} />
        ))}
      </ul>
      <ListFooter query={query} noun="people" />
    </section>
  );
}

function PeopleView({ id, which }: { id: string; which: PeopleKind }) {
  const user = useUser(id);
  const { user: me } = useViewer();
  if (user.isError && isNotFound(user.error)) return <NotFound message="This account doesn’t exist." />;
  const data = user.data;
  return (
    <>
      {data && (
        <PageTitle>{`${which === 'followers' ? 'People following' : 'People followed by'} ${data.name} (@${data.username})`}</PageTitle>
      )}
      <PageHeader title={data?.name ?? 'Profile'} subtitle={data ? `@${data.username}` : undefined} back>
        <PeopleTabs id={id} />
      </PageHeader>
      {user.isError ? (
        <ErrorState message="Couldn’t load this profile." onRetry={() => user.refetch()} />
      ) : data ? (
        <PeopleList key={which} id={id} which={which} name={data.name} own={me?.id === id} />
      ) : (
        <PostSkeletons />
      )}
    </>
  );
}

function PeoplePage({ which }: { which: PeopleKind }) {
  const { id = '' } = useParams();
  if (!isId(id)) return <NotFound message="This account doesn’t exist." />;
  return <PeopleView key={id} id={id} which={which} />;
}

export const FollowersPage = () => <PeoplePage which="followers" />;
export const FollowingPage = () => <PeoplePage which="following" />;
