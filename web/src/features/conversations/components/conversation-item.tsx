import type { Conversation } from '@pipit/contract';
import { Trash2 } from 'lucide-react';
import { type MouseEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { t } from '../../../i18n/i18n.ts';
import { cn } from '../../../lib/cn.ts';
import { paths } from '../../../lib/paths.ts';
import { useReadConversation } from '../api/read-conversation.ts';
import { useRemoveConversation } from '../api/remove-conversation.ts';

/** "Bob", "Bob and Carol", "Bob, Carol and 2 others"; "Only you" for a note to oneself. */
export function participantNames(c: Conversation): string {
  const names = c.participants.map((p) => p.name);
  if (names.length === 0) return t('Only you');
  if (names.length === 1) return names[0] as string;
  if (names.length === 2) return `${names[0]} and ${names[1]}`;
  return `${names[0]}, ${names[1]} and ${names.length - 2} other${names.length > 3 ? 's' : ''}`;
}

/**
 * One conversation: the people in it, its last post's first lines and time; unread ones marked (a
 * tint, a dot, bold names, and "unread" for screen readers). The row opens the thread (the post page
 * of its last post) and marks it read; the bin asks before deleting it (for oneself only).
 */
export function ConversationItem({ conversation, viewerId }: { conversation: Conversation; viewerId: string }) {
  const { lastPost, unread } = conversation;
  const target = paths.post(lastPost.id);
  const navigate = useNavigate();
  const read = useReadConversation();
  const remove = useRemoveConversation();
  const [confirming, setConfirming] = useState(false);
  const names = participantNames(conversation);
  const faces = conversation.participants.length > 0 ? conversation.participants.slice(0, 2) : [lastPost.author];

  const markRead = () => {
    if (unread) read.mutate(conversation.id);
  };
  const open = (event: MouseEvent<HTMLElement>) => {
    const clicked = event.target as HTMLElement;
    if (!event.currentTarget.contains(clicked) || clicked.closest('a, button')) return;
    if (window.getSelection()?.toString()) return;
    markRead();
    navigate(target);
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the names' link is the keyboard path
    <article
      onClick={open}
      aria-label={
        unread ? t('Conversation with {names}, unread', { names }) : t('Conversation with {names}', { names })
      }
      className={cn(
        'flex cursor-pointer gap-3 border-b border-line px-4 py-3 transition-colors hover:bg-fg/[0.03]',
        unread && 'bg-accent/[0.06]',
      )}
    >
      {/* One face, or two overlapping in the same 48 px: the text column lines up on every row. */}
      <div className="relative size-12 shrink-0">
        {faces.length === 1 ? (
          <Avatar user={faces[0] as (typeof faces)[number]} link={false} />
        ) : (
          faces
            .slice(0, 2)
            .map((person, i) => (
              <Avatar
                key={person.id}
                user={person}
                link={false}
                className={cn(
                  'absolute rounded-full [&_img]:size-8!',
                  i === 0 ? 'top-0 start-0' : 'end-0 bottom-0 ring-2 ring-bg',
                )}
              />
            ))
        )}
        {unread && (
          <span
            data-testid="unread-dot"
            aria-hidden="true"
            className="absolute -top-0.5 -start-0.5 size-3 rounded-full bg-accent ring-2 ring-bg"
          />
        )}
      </div>
      <div className="min-w-0 flex-1">
        <p className="flex items-baseline gap-1 text-[15px] leading-5">
          <Link
            to={target}
            onClick={markRead}
            className={cn('min-w-0 truncate hover:underline', unread ? 'font-extrabold' : 'font-bold')}
          >
            {names}
          </Link>
          <span className="shrink-0 text-muted">
            {' · '}
            <RelativeTime iso={conversation.updatedAt} />
          </span>
          {unread && <span className="sr-only"> {t('(unread)')}</span>}
        </p>
        <p
          className={cn(
            'mt-0.5 line-clamp-2 text-[15px] leading-5 [overflow-wrap:anywhere]',
            unread ? 'text-fg' : 'text-muted',
          )}
        >
          {lastPost.author.id === viewerId ? <span className="text-muted">{t('You:')} </span> : null}
          {/* Behind a warning, the preview is the warning, never the text it hides. */}
          {lastPost.spoilerText
            ? t('Content warning: {spoilerText}', { spoilerText: lastPost.spoilerText })
            : lastPost.text}
        </p>
      </div>
      <button
        type="button"
        aria-label={t('Delete conversation with {names}', { names })}
        title={t('Delete conversation')}
        onClick={() => setConfirming(true)}
        className="-me-2 grid size-9 shrink-0 place-items-center self-start rounded-full text-muted transition-colors hover:bg-danger/10 hover:text-danger"
      >
        <Trash2 aria-hidden="true" className="size-[18px]" />
      </button>
      {confirming && (
        <ConfirmDialog
          title={t('Delete conversation?')}
          confirm={t('Delete')}
          variant="danger"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(conversation.id, { onSettled: () => setConfirming(false) })}
          onCancel={() => setConfirming(false)}
        >
          {t('It leaves your Messages only: the others keep it, and a new message in it brings it back.')}
        </ConfirmDialog>
      )}
    </article>
  );
}
