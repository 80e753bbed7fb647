import type { ModerationReport } from '@pipit/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PostText } from '../../../components/post-text.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { SuspendDialog } from '../../../components/suspend-dialog.tsx';
import { m, t } from '../../../i18n/i18n.ts';
import { rich } from '../../../i18n/rich.tsx';
import { paths } from '../../../lib/paths.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useResolveReport } from '../api/moderation.ts';
import { categoryLabel, outcomeText } from '../labels.ts';

type Action = 'remove_post' | 'suspend' | 'dismiss';

const DONE: Record<Action, { outcome: ModerationReport['outcome']; text: string }> = {
  remove_post: { outcome: 'post_removed', text: m('Post removed') },
  suspend: { outcome: 'suspended', text: m('Account suspended') },
  dismiss: { outcome: 'dismissed', text: m('Report dismissed') },
};

/**
 * One report as moderators read it: why and by whom, the reported post (with what it replied to) or
 * person, how many open reports name them; and, while open, Remove post, Suspend and Dismiss.
 */
export function ReportCard({ report }: { report: ModerationReport }) {
  const [confirming, setConfirming] = useState<Exclude<Action, 'dismiss'> | null>(null);
  const resolve = useResolveReport();
  const { subject } = report;
  const who = subject.user;
  const headingId = `report-${report.id}`;

  const act = (action: Action) =>
    resolve.mutate(
      { id: report.id, action },
      {
        onSuccess: (done) => {
          setConfirming(null);
          // Another moderator may have closed it first: say what came of it then.
          notify(
            done.outcome === DONE[action].outcome
              ? t(DONE[action].text)
              : t('Already closed. {outcome}.', { outcome: outcomeText(done) }),
          );
        },
        onError: (error) => notifyError(error instanceof Error ? error.message : t('Could not do that. Try again.')),
      },
    );

  return (
    <article aria-labelledby={headingId} className="border-b border-line px-4 py-3">
      <header className="flex flex-wrap items-baseline gap-x-2 text-[15px]">
        <h3 id={headingId} className="font-bold">
          {rich(
            subject.postId
              ? t('{category} · a post by <0>@{username}</0>', {
                  category: categoryLabel(report.category),
                  username: who.username,
                })
              : t('{category} · the account <0>@{username}</0>', {
                  category: categoryLabel(report.category),
                  username: who.username,
                }),
            [
              (name) => (
                <Link to={paths.user(who.id)} className="hover:underline">
                  {name}
                </Link>
              ),
            ],
          )}
        </h3>
        <span className="text-muted">
          {t('reported by {who}', {
            who: report.reporter ? `@${report.reporter.username}` : t('a deleted account'),
          })}{' '}
          · <RelativeTime iso={report.createdAt} />
        </span>
      </header>
      {report.comment && <p className="mt-1 text-[15px] whitespace-pre-wrap text-muted">“{report.comment}”</p>}
      <div className="mt-3 flex gap-3 rounded-xl border border-line p-3">
        <Avatar user={who} />
        <div className="min-w-0 flex-1">
          <p className="truncate text-[15px]">
            <strong>{who.name}</strong>{' '}
            <span className="text-muted">
              <bdi>@{who.username}</bdi>
            </span>
            {who.suspended && <span className="ms-2 text-sm font-bold text-danger">{t('Suspended')}</span>}
          </p>
          {subject.inReplyTo && (
            <p className="mt-1 text-sm text-muted">
              {t('Replying to @{username}: “{text}”', {
                username: subject.inReplyTo.user.username,
                text: subject.inReplyTo.text,
              })}
            </p>
          )}
          {subject.postText !== null && (
            <>
              <PostText text={subject.postText} className="mt-1 text-[15px] leading-5" />
              {subject.postId && subject.postExists ? (
                <Link to={paths.post(subject.postId)} className="mt-1 inline-block text-sm text-accent hover:underline">
                  {t('Open the post')}
                </Link>
              ) : (
                <p className="mt-1 text-sm text-muted">{t('This post is no longer there.')}</p>
              )}
            </>
          )}
          <p className="mt-2 text-sm text-muted">
            {report.openReportsAboutUser === 1
              ? t('The only open report about them')
              : t('{count, plural, one {# open report about them} other {# open reports about them}}', {
                  count: report.openReportsAboutUser,
                })}
          </p>
        </div>
      </div>
      {report.status === 'open' ? (
        <div className="mt-3 flex flex-wrap gap-2">
          {subject.postId && subject.postExists && (
            <Button
              variant="danger"
              size="sm"
              disabled={resolve.isPending}
              onClick={() => setConfirming('remove_post')}
            >
              {t('Remove post')}
            </Button>
          )}
          {!who.suspended && (
            <Button variant="danger" size="sm" disabled={resolve.isPending} onClick={() => setConfirming('suspend')}>
              {t('Suspend @{username}', { username: who.username })}
            </Button>
          )}
          <Button variant="secondary" size="sm" disabled={resolve.isPending} onClick={() => act('dismiss')}>
            {t('Dismiss')}
          </Button>
        </div>
      ) : (
        <p className="mt-3 text-sm text-muted">
          {report.resolvedBy
            ? t('{outcome} by @{username}', { outcome: outcomeText(report), username: report.resolvedBy.username })
            : outcomeText(report)}
          {report.resolvedAt && (
            <>
              {' · '}
              <RelativeTime iso={report.resolvedAt} />
            </>
          )}
        </p>
      )}
      {confirming === 'remove_post' && (
        <ConfirmDialog
          title={t('Remove this post?')}
          confirm={t('Remove')}
          variant="danger"
          busy={resolve.isPending}
          onConfirm={() => act('remove_post')}
          onCancel={() => setConfirming(null)}
        >
          <p>{t('It is deleted for everyone, and every open report about it is closed. The audit log records it.')}</p>
        </ConfirmDialog>
      )}
      {confirming === 'suspend' && (
        <SuspendDialog
          user={who}
          busy={resolve.isPending}
          onConfirm={() => act('suspend')}
          onCancel={() => setConfirming(null)}
        />
      )}
    </article>
  );
}
