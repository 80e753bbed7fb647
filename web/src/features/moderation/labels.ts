import type { AuditEntry, Report } from '@pipit/contract';
import { t } from '../../i18n/i18n.ts';
import { reportCategoryLabel } from '../../lib/report-categories.ts';

/** "Spam", "Harassment or bullying", … */
export const categoryLabel = reportCategoryLabel;

/** What came of a report, in the reporter's words. */
export function outcomeText(report: Pick<Report, 'status' | 'outcome'>): string {
  switch (report.outcome) {
    case 'post_removed':
      return t('The post was removed');
    case 'suspended':
      return t('The account was suspended');
    case 'dismissed':
      return t('Reviewed: no action taken');
    default:
      return t('Open: a moderator will look at it');
  }
}

/** One line of the audit log, after the moderator's name: "removed a post by @bob". */
export function auditText(entry: AuditEntry): string {
  const who = entry.subject ? `@${entry.subject.username}` : t('a deleted account');
  switch (entry.action) {
    case 'post.removed':
      return t('removed a post by {who}', { who });
    case 'account.suspended':
      return t('suspended {who}', { who });
    case 'account.restored':
      return t('lifted the suspension of {who}', { who });
    case 'report.dismissed':
      return t('dismissed a report about {who}', { who });
    case 'role.changed':
      return entry.detail === 'moderator' ? t('made {who} a moderator', { who }) : t('made {who} a member', { who });
    case 'domain.blocked':
      return t('blocked the server {domain}', { domain: entry.detail ?? '' });
    case 'domain.unblocked':
      return t('unblocked the server {domain}', { domain: entry.detail ?? '' });
  }
}
