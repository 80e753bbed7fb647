import { canModerate } from '@pipit/contract';
import { Link } from 'react-router';
import { ListFooter } from '../../../components/list-footer.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { ErrorState, Spinner } from '../../../components/states.tsx';
import { t } from '../../../i18n/i18n.ts';
import { cn } from '../../../lib/cn.ts';
import { paths } from '../../../lib/paths.ts';
import { pageItems } from '../../../state/paged.ts';
import { useViewer } from '../../../state/viewer.tsx';
import { useMyReports } from '../api/moderation.ts';
import { categoryLabel, outcomeText } from '../labels.ts';

/** Settings → Your reports: what the member reported, newest first, and what came of each. */
export function MyReports() {
  const query = useMyReports();
  const reports = pageItems(query.data);
  return (
    <SettingsSection id="your-reports" title={t('Your reports')}>
      {query.isPending ? (
        <Spinner label={t('Loading your reports')} />
      ) : query.isError ? (
        <ErrorState message={t('Couldn’t load your reports.')} onRetry={() => query.refetch()} />
      ) : reports.length === 0 ? (
        <p className="px-4 pb-4 text-[15px] text-muted">
          {t('You haven’t reported anything. To report a post, use its flag; to report an account, its More menu.')}
        </p>
      ) : (
        <ul aria-label={t('Your reports')}>
          {reports.map((report) => (
            <li key={report.id} className="border-b border-line px-4 py-3 text-[15px]">
              <p>
                <strong>{categoryLabel(report.category)}</strong> ·{' '}
                {report.subject.postId
                  ? t('a post by @{username}', { username: report.subject.user.username })
                  : t('the account @{username}', { username: report.subject.user.username })}{' '}
                ·{' '}
                <span className="text-muted">
                  <RelativeTime iso={report.createdAt} />
                </span>
              </p>
              {report.subject.postText && <p className="mt-1 truncate text-muted">“{report.subject.postText}”</p>}
              <p className={cn('mt-1 text-sm', report.status === 'open' ? 'text-muted' : 'font-bold')}>
                {outcomeText(report)}
              </p>
            </li>
          ))}
        </ul>
      )}
      <ListFooter query={query} noun={t('reports')} />
    </SettingsSection>
  );
}

/** For moderators, a way to the Moderation page (the phone's bottom bar has no room for it). */
export function ModerationLink() {
  const { user } = useViewer();
  if (!user || !canModerate(user.role)) return null;
  return (
    <SettingsSection id="moderation-link" title={t('Moderation')} padded>
      <p className="mt-1 text-[15px] text-muted">
        {user.role === 'admin' ? t('You are an admin.') : t('You are a moderator.')}{' '}
        <Link to={paths.moderation} className="text-accent underline decoration-accent/50 underline-offset-2">
          {t('Open the reports')}
        </Link>
      </p>
    </SettingsSection>
  );
}
