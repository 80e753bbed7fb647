import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useRefocus } from '../../../components/use-refocus.ts';
import { t } from '../../../i18n/i18n.ts';
import { rich } from '../../../i18n/rich.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { closeModal, useModalState } from '../../../lib/modals.ts';
import { useRequestPasswordReset } from '../api/password-reset.ts';
import { EmailField, isValidEmail } from './email-field.tsx';
import { SwitchModalLink } from './switch-modal-link.tsx';

/**
 * "Forgot password?" from the Login modal: asks for the account's email and sends a link. The answer
 * is the same whether or not the email has an account, so the page says "if".
 */
export function ForgotPasswordModal() {
  const { returnFocus } = useModalState();
  const [email, setEmail] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const request = useRequestPasswordReset();
  const { formRef, refocus } = useRefocus();
  const problem =
    request.error instanceof ApiRequestError && request.error.status === 429
      ? request.error.message
      : request.error
        ? t('Couldn’t send the link. Try again.')
        : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (request.isPending) return;
    if (!isValidEmail(email)) {
      refocus();
      return;
    }
    request.mutate(email.trim(), { onSuccess: () => setSentTo(email.trim()) });
  };

  return (
    <Modal title={t('Reset your password')} onClose={closeModal} returnFocus={returnFocus}>
      {sentTo ? (
        <div className="pt-4" role="status">
          <h3 className="text-xl font-bold">{t('Check your email')}</h3>
          <p className="mt-2 text-[15px] text-muted">
            {rich(
              t(
                'If an account uses <0>{email}</0>, a link to set a new password is on its way. It works once, for an hour.',
                {
                  email: sentTo,
                },
              ),
              [(email) => <strong className="break-all text-fg">{email}</strong>],
            )}
          </p>
        </div>
      ) : (
        <form ref={formRef} onSubmit={onSubmit} noValidate className="flex flex-col gap-2 pt-4">
          <p className="pb-2 text-[15px] text-muted">
            {t('Enter the email of your account and we’ll send you a link to set a new password.')}
          </p>
          <EmailField value={email} onChange={setEmail} disabled={request.isPending} submitted={submitted} />
          <div className="min-h-5 text-[15px] text-danger">{problem && <p role="alert">{problem}</p>}</div>
          <Button type="submit" size="lg" disabled={request.isPending} className="mt-2">
            {t('Send link')}
          </Button>
        </form>
      )}
      <SwitchModalLink prompt={t('Remembered it?')} to="login" disabled={request.isPending}>
        {t('Back to sign in')}
      </SwitchModalLink>
    </Modal>
  );
}
