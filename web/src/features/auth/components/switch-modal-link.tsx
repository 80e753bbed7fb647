import { type ModalName, openModal } from '../../../lib/modals.ts';

interface SwitchModalLinkProps {
  /** The sentence before the link, e.g. 'First time using Pipit?'. */
  prompt: string;
  /** The modal the link opens instead of this one. */
  to: ModalName;
  disabled: boolean;
  children: string;
}

/** The line under the login and register forms that switches to the other one. */
export function SwitchModalLink({ prompt, to, disabled, children }: SwitchModalLinkProps) {
  return (
    <p className="mt-8 text-center text-[15px] text-muted">
      {prompt}{' '}
      <button
        type="button"
        onClick={() => openModal(to)}
        disabled={disabled}
        className="font-medium text-accent hover:underline disabled:cursor-not-allowed disabled:opacity-50"
      >
        {children}
      </button>
    </p>
  );
}
