import { ConfirmDialog } from '../../components/confirm-dialog.tsx';

interface SignOutConfirmProps {
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The phone's "Sign out of Pipit?" (its own chunk: the dialog code stays off a first visit). */
export function SignOutConfirm({ busy, onConfirm, onCancel }: SignOutConfirmProps) {
  return (
    <ConfirmDialog title="Sign out of Pipit?" confirm="Sign out" busy={busy} onConfirm={onConfirm} onCancel={onCancel}>
      <p>You can always sign back in.</p>
    </ConfirmDialog>
  );
}
