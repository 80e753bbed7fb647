import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { t } from '../../i18n/i18n.ts';

interface SignOutConfirmProps {
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The phone's "Sign out of Pipit?" (its own chunk: the dialog code stays off a first visit). */
export function SignOutConfirm({ busy, onConfirm, onCancel }: SignOutConfirmProps) {
  return (
    <ConfirmDialog
      title={t('Sign out of Pipit?')}
      confirm={t('Sign out')}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>{t('You can always sign back in.')}</p>
    </ConfirmDialog>
  );
}
