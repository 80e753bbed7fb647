import { Link, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { EmptyState } from '../../components/states.tsx';
import { paths } from '../../lib/paths.ts';

/** `/hashtag/:tag`, from a #hashtag in a post: search comes later (docs/spec/product.md §1, "Asked for now"). */
export function HashtagPage() {
  const { tag = '' } = useParams();
  return (
    <>
      <PageTitle>{`#${tag}`}</PageTitle>
      <PageHeader title={`#${tag}`} back />
      <EmptyState title={`#${tag}`}>
        Searching posts by hashtag isn’t available yet. Meanwhile the{' '}
        <Link to={paths.home} className="text-accent underline underline-offset-2">
          Everyone timeline
        </Link>{' '}
        shows every post.
      </EmptyState>
    </>
  );
}
