import { useId } from 'react';
import { Link } from 'react-router';
import { t } from '../../../i18n/i18n.ts';
import { formatCount } from '../../../lib/format-time.ts';
import { paths } from '../../../lib/paths.ts';
import { useTrending } from '../../../state/hashtags.ts';

/** The right column's trending hashtags (last 24 hours); nothing at all when nobody used one. */
export function Trending() {
  const titleId = useId();
  const { data } = useTrending();
  if (!data || data.items.length === 0) return null;
  return (
    <section aria-labelledby={titleId} className="overflow-hidden rounded-2xl border border-line">
      <h2 id={titleId} className="px-4 py-3 text-xl font-extrabold">
        {t('Trending')}
      </h2>
      <ol>
        {data.items.map((item) => (
          <li key={item.tag}>
            <Link
              to={paths.hashtag(item.tag)}
              className="block px-4 py-3 leading-5 transition-colors hover:bg-fg/[0.03]"
            >
              <span className="block truncate font-bold">
                <bdi>#{item.tag}</bdi>
              </span>
              <span className="block text-[13px] text-muted">
                {t('{count, plural, one {{shown} person posting} other {{shown} people posting}}', {
                  count: item.people,
                  shown: formatCount(item.people),
                })}
              </span>
            </Link>
          </li>
        ))}
      </ol>
    </section>
  );
}
