import { LIMITS } from '@pipit/contract';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { closeModal, openModal, useModalState } from '../../../lib/modals.ts';
import { signIn } from '../../../lib/session.tsx';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useRegister } from '../api/register.ts';
import { EmailField, isValidEmail } from './email-field.tsx';
import { SwitchModalLink } from './switch-modal-link.tsx';

type Field = 'email' | 'name' | 'username' | 'password';

const FIELD_OF_CODE: Record<string, Field> = { EMAIL_TAKEN: 'email', USERNAME_TAKEN: 'username' };

/**
 * 'Create an account' → 'Register'. On success the person is signed in with the same
 * credentials, 'Account created.' shows and the modal closes; on failure 'Something went wrong.'
 * (and the server's word on the field at fault, under it).
 */
export function RegisterModal() {
  const { returnFocus } = useModalState();
  const [values, setValues] = useState<Record<Field, string>>({ email: '', name: '', username: '', password: '' });
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<{ field: string; message: string } | null>(null);
  const register = useRegister();

  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (fieldError?.field === field) setFieldError(null);
  };
  const errorFor = (field: Field) => (fieldError?.field === field ? fieldError.message : null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (busy || !isValidEmail(values.email)) return;
    setBusy(true);
    setFieldError(null);
    const email = values.email.trim();
    try {
      await register.mutateAsync({ email, password: values.password, username: values.username, name: values.name });
    } catch (error) {
      notifyError('Something went wrong.');
      const field = error instanceof ApiRequestError ? (error.field ?? FIELD_OF_CODE[error.code]) : undefined;
      if (error instanceof ApiRequestError && field) setFieldError({ field, message: error.message });
      setBusy(false);
      return;
    }
    try {
      const result = await signIn('credentials', { email, password: values.password, redirect: false });
      notify('Account created.');
      if (result?.ok) closeModal();
      else {
        console.error('Sign-in after registering failed:', result?.error);
        openModal('login');
      }
    } catch (error) {
      console.error('Sign-in after registering failed:', error);
      notify('Account created.');
      openModal('login');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title="Create an account" onClose={closeModal} returnFocus={returnFocus}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2 pt-4">
        <EmailField
          value={values.email}
          onChange={set('email')}
          disabled={busy}
          submitted={submitted}
          error={errorFor('email')}
        />
        <TextField
          label="Name"
          autoComplete="name"
          value={values.name}
          onChange={(event) => set('name')(event.target.value)}
          disabled={busy}
          maxLength={LIMITS.nameMax}
          error={errorFor('name')}
        />
        <TextField
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={values.username}
          onChange={(event) => set('username')(event.target.value)}
          disabled={busy}
          maxLength={LIMITS.usernameMax}
          error={errorFor('username')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={(event) => set('password')(event.target.value)}
          disabled={busy}
          error={errorFor('password')}
        />
        <Button type="submit" size="lg" disabled={busy} className="mt-4">
          Register
        </Button>
      </form>
      <SwitchModalLink prompt="Already have an account?" to="login" disabled={busy}>
        Sign In
      </SwitchModalLink>
    </Modal>
  );
}
