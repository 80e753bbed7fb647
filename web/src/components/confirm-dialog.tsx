import type { ReactNode } from 'react';
import { t } from '../i18n/i18n.ts';
import { Button, type ButtonProps } from './button.tsx';
import { Modal } from './modal.tsx';

interface ConfirmDialogProps {
  /** The question, e.g. "Delete post?": the dialog's name. */
  title: string;
  children: ReactNode;
  /** The confirming button's words ("Delete", "Block", "Sign out"). */
  confirm: string;
  /** `danger` for what cannot be undone. */
  variant?: ButtonProps['variant'];
  /** A request is on its way: both buttons wait, and the dialog stays. */
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A small confirmation: the question, what it means, then the action (focused) and Cancel. */
export function ConfirmDialog({
  title,
  children,
  confirm,
  variant = 'primary',
  busy,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Modal title={title} onClose={() => !busy && onCancel()} className="sm:max-w-[360px]">
      <div className="text-[15px] text-muted">{children}</div>
      <div className="mt-6 flex flex-col gap-3">
        <Button variant={variant} size="lg" onClick={onConfirm} disabled={busy} data-autofocus>
          {confirm}
        </Button>
        <Button variant="secondary" size="lg" onClick={onCancel} disabled={busy}>
          {t('Cancel')}
        </Button>
      </div>
    </Modal>
  );
}
