import { fullDate, relativeTime } from '../lib/format-time.ts';
import { useNow } from '../lib/use-now.ts';

/** "5m", "3h", "Nov 3", with the full date on hover. */
export function RelativeTime({ iso }: { iso: string }) {
  const now = useNow();
  return (
    <time dateTime={iso} title={fullDate(iso)}>
      {relativeTime(iso, now)}
    </time>
  );
}
