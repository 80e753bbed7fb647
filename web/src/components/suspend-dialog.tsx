import type { User } from '@pipit/contract';
import { t } from '../i18n/i18n.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

/** What a suspension does, before a moderator confirms it (the Moderation page asks the same). */
export function SuspendDialog({
  user,
  busy,
  onCancel,
  onConfirm,
}: {
  user: Pick<User, 'username'>;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      title={t('Suspend @{username}?', { username: user.username })}
      confirm={t('Suspend')}
      variant="danger"
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        {t(
          'They are signed out everywhere and cannot sign in; their posts and profile are hidden from everyone until a moderator lifts the suspension. The audit log records it.',
        )}
      </p>
    </ConfirmDialog>
  );
}
