import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { closeModal, useModalState } from '../../../lib/modals.ts';
import { signIn } from '../../../lib/session.tsx';
import { EmailField, isValidEmail } from './email-field.tsx';
import { SwitchModalLink } from './switch-modal-link.tsx';

/**
 * 'Login' → 'Sign In'. A failed sign-in is only logged to the console (the seed shows nothing);
 * the modal stays open with what was typed.
 */
export function LoginModal() {
  const { returnFocus } = useModalState();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (busy || !isValidEmail(email)) return;
    setBusy(true);
    try {
      const result = await signIn('credentials', { email: email.trim(), password, redirect: false });
      if (result?.ok) closeModal();
      else console.error('Sign-in failed:', result?.error ?? 'no answer');
    } catch (error) {
      console.error('Sign-in failed:', error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title="Login" onClose={closeModal} returnFocus={returnFocus}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2 pt-4">
        <EmailField value={email} onChange={setEmail} disabled={busy} submitted={submitted} />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          disabled={busy}
        />
        <Button type="submit" size="lg" disabled={busy} className="mt-4">
          Sign In
        </Button>
      </form>
      <SwitchModalLink prompt="First time using Pipit?" to="register" disabled={busy}>
        Create an account
      </SwitchModalLink>
    </Modal>
  );
}
