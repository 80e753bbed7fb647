import { canModerate, MUTE_CHOICES, type User } from '@pipit/contract';
import { MoreHorizontal } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { SuspendDialog } from '../../../components/suspend-dialog.tsx';
import { t } from '../../../i18n/i18n.ts';
import { menuKeyHandler } from '../../../lib/menu-keys.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useSuspension } from '../../../state/moderation.ts';
import { useViewer } from '../../../state/viewer.tsx';
import { useBlock, useMute } from '../api/safety.ts';

const ReportDialog = lazy(() =>
  import('../../../components/report-dialog.tsx').then((m) => ({ default: m.ReportDialog })),
);

type Dialog = 'block' | 'mute' | 'report' | 'suspend' | null;

/**
 * "More" on someone else's profile: a menu with Mute / Unmute, Block / Unblock and Report; for
 * moderators also Suspend / Lift the suspension. Muting asks for how long; blocking and suspending
 * ask for a confirmation that says what they do; reporting asks why. Arrow keys move through the
 * menu, Escape or a click elsewhere closes it and focus returns to the button.
 */
export function ProfileMenu({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const block = useBlock();
  const mute = useMute();
  const suspension = useSuspension();
  const moderator = canModerate(useViewer().user?.role ?? 'member');

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onMenuKeyDown = menuKeyHandler(menu, '[role="menuitem"]', close);

  const choose = (what: NonNullable<Dialog>) => {
    setOpen(false);
    if (what === 'suspend' && user.suspended) {
      suspension.mutate(
        { id: user.id, suspend: false },
        {
          onSuccess: () => notify(t('Lifted the suspension of @{username}', { username: user.username })),
          onError: () => notifyError(t('Could not lift the suspension. Try again.')),
        },
      );
    } else if (what === 'mute' && user.isMuting) {
      mute.mutate(
        { id: user.id, mute: false },
        {
          onSuccess: () => notify(t('Unmuted @{username}', { username: user.username })),
          onError: () => notifyError(t('Could not unmute. Try again.')),
        },
      );
    } else if (what === 'block' && user.isBlocking) {
      block.mutate(
        { id: user.id, block: false },
        {
          onSuccess: () => notify(t('Unblocked @{username}', { username: user.username })),
          onError: () => notifyError(t('Could not unblock. Try again.')),
        },
      );
    } else {
      setDialog(what);
    }
  };

  const itemClass =
    // A faint highlight: red text keeps its contrast on it (on surface-2 it would not).
    'block w-full px-4 py-3 text-start text-[15px] font-bold hover:bg-fg/5 focus:bg-fg/5 focus:outline-none';
  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-label={t('More')}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((was) => !was)}
        className="grid size-9 place-items-center rounded-full border border-line-strong hover:bg-surface-2"
      >
        <MoreHorizontal aria-hidden="true" className="size-5" />
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={t('More for @{username}', { username: user.username })}
          onKeyDown={onMenuKeyDown}
          className="absolute end-0 z-20 mt-2 w-60 overflow-hidden rounded-xl border border-line bg-bg shadow-[0_0_15px] shadow-fg/20"
        >
          <button type="button" role="menuitem" tabIndex={-1} className={itemClass} onClick={() => choose('mute')}>
            {user.isMuting
              ? t('Unmute @{username}', { username: user.username })
              : t('Mute @{username}', { username: user.username })}
          </button>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className={`${itemClass} text-danger`}
            onClick={() => choose('block')}
          >
            {user.isBlocking
              ? t('Unblock @{username}', { username: user.username })
              : t('Block @{username}', { username: user.username })}
          </button>
          <button type="button" role="menuitem" tabIndex={-1} className={itemClass} onClick={() => choose('report')}>
            {t('Report @{username}', { username: user.username })}
          </button>
          {moderator && (
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={`${itemClass} border-t border-line text-danger`}
              onClick={() => choose('suspend')}
            >
              {user.suspended
                ? t('Lift suspension of @{username}', { username: user.username })
                : t('Suspend @{username}', { username: user.username })}
            </button>
          )}
        </div>
      )}
      {dialog === 'report' && (
        <Suspense fallback={null}>
          <ReportDialog
            kind="user"
            id={user.id}
            username={user.username}
            domain={user.domain}
            onClose={() => setDialog(null)}
          />
        </Suspense>
      )}
      {dialog === 'suspend' && (
        <SuspendDialog
          user={user}
          busy={suspension.isPending}
          onCancel={() => setDialog(null)}
          onConfirm={() =>
            suspension.mutate(
              { id: user.id, suspend: true },
              {
                onSuccess: () => {
                  setDialog(null);
                  notify(t('Suspended @{username}', { username: user.username }));
                },
                onError: (error) =>
                  notifyError(error instanceof Error ? error.message : t('Could not suspend. Try again.')),
              },
            )
          }
        />
      )}
      {dialog === 'block' && (
        <BlockDialog
          user={user}
          busy={block.isPending}
          onCancel={() => setDialog(null)}
          onConfirm={() =>
            block.mutate(
              { id: user.id, block: true },
              {
                onSuccess: () => {
                  setDialog(null);
                  notify(t('Blocked @{username}', { username: user.username }));
                },
                onError: () => notifyError(t('Could not block. Try again.')),
              },
            )
          }
        />
      )}
      {dialog === 'mute' && (
        <MuteDialog
          user={user}
          busy={mute.isPending}
          onCancel={() => setDialog(null)}
          onConfirm={(seconds) =>
            mute.mutate(
              { id: user.id, mute: true, seconds },
              {
                onSuccess: () => {
                  setDialog(null);
                  notify(t('Muted @{username}', { username: user.username }));
                },
                onError: () => notifyError(t('Could not mute. Try again.')),
              },
            )
          }
        />
      )}
    </div>
  );
}

interface DialogProps {
  user: Pick<User, 'username'>;
  busy: boolean;
  onCancel: () => void;
}

function BlockDialog({ user, busy, onCancel, onConfirm }: DialogProps & { onConfirm: () => void }) {
  return (
    <ConfirmDialog
      title={t('Block @{username}?', { username: user.username })}
      confirm={t('Block')}
      variant="danger"
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        {t(
          'You will not see each other’s posts, and neither of you can follow the other. Following between you ends now and is not restored if you unblock.',
        )}
      </p>
    </ConfirmDialog>
  );
}

function MuteDialog({
  user,
  busy,
  onCancel,
  onConfirm,
}: DialogProps & { onConfirm: (seconds: number | null) => void }) {
  const [choice, setChoice] = useState(0);
  const name = useId();
  return (
    <ConfirmDialog
      title={t('Mute @{username}?', { username: user.username })}
      confirm={t('Mute')}
      busy={busy}
      onConfirm={() => onConfirm(MUTE_CHOICES[choice]?.seconds ?? null)}
      onCancel={onCancel}
    >
      <p>{t('Their posts leave your timelines and they won’t notify you. They won’t know you muted them.')}</p>
      <fieldset className="mt-4 text-fg">
        <legend className="mb-2 font-bold">{t('For how long')}</legend>
        {MUTE_CHOICES.map((option, index) => (
          <label key={option.label} className="flex items-center gap-3 py-1.5 text-[15px]">
            <input
              type="radio"
              name={name}
              checked={choice === index}
              onChange={() => setChoice(index)}
              className="size-4 accent-[var(--color-accent)]"
            />
            {option.label}
          </label>
        ))}
      </fieldset>
    </ConfirmDialog>
  );
}
