import { type AuditEntry, REPORT_CATEGORIES, type Report, type ReportCategory } from '@pipit/contract';

/** "Spam", "Harassment or bullying", … */
export const categoryLabel = (category: ReportCategory) =>
  REPORT_CATEGORIES.find((c) => c.value === category)?.label ?? category;

/** What came of a report, in the reporter's words. */
export function outcomeText(report: Pick<Report, 'status' | 'outcome'>): string {
  switch (report.outcome) {
    case 'post_removed':
      return 'The post was removed';
    case 'suspended':
      return 'The account was suspended';
    case 'dismissed':
      return 'Reviewed: no action taken';
    default:
      return 'Open: a moderator will look at it';
  }
}

/** One line of the audit log, after the moderator's name: "removed a post by @bob". */
export function auditText(entry: AuditEntry): string {
  const who = entry.subject ? `@${entry.subject.username}` : 'a deleted account';
  switch (entry.action) {
    case 'post.removed':
      return `removed a post by ${who}`;
    case 'account.suspended':
      return `suspended ${who}`;
    case 'account.restored':
      return `lifted the suspension of ${who}`;
    case 'report.dismissed':
      return `dismissed a report about ${who}`;
    case 'role.changed':
      return entry.detail === 'moderator' ? `made ${who} a moderator` : `made ${who} a member`;
  }
}
