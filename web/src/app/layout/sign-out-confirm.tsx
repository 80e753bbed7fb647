import { Button } from '../../components/button.tsx';
import { Modal } from '../../components/modal.tsx';

interface SignOutConfirmProps {
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The phone's "Sign out of Pipit?" (its own chunk: the dialog code stays off a first visit). */
export function SignOutConfirm({ busy, onConfirm, onCancel }: SignOutConfirmProps) {
  return (
    <Modal title="Sign out of Pipit?" onClose={() => !busy && onCancel()} className="sm:max-w-[320px]">
      <p className="text-[15px] text-muted">You can always sign back in.</p>
      <div className="mt-6 flex flex-col gap-3">
        <Button size="lg" onClick={onConfirm} disabled={busy} data-autofocus>
          Sign out
        </Button>
        <Button variant="secondary" size="lg" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </Modal>
  );
}
