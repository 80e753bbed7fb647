import { LIMITS } from '@pipit/contract';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useRefocus } from '../../../components/use-refocus.ts';
import { t } from '../../../i18n/i18n.ts';
import { fieldErrorsOf } from '../../../lib/field-errors.ts';
import {
  checkFields,
  emailProblem,
  type FieldErrors,
  nameProblem,
  passwordProblem,
  usernameProblem,
} from '../../../lib/field-rules.ts';
import { closeModal, openModal, useModalState } from '../../../lib/modals.ts';
import { signIn } from '../../../lib/session.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useRegister } from '../api/register.ts';
import { EmailField } from './email-field.tsx';
import { SwitchModalLink } from './switch-modal-link.tsx';

const FIELDS = ['email', 'name', 'username', 'password'] as const;
type Field = (typeof FIELDS)[number];

const check = (values: Record<Field, string>) =>
  checkFields<Field>({
    email: () => emailProblem(values.email),
    name: () => nameProblem(values.name),
    username: () => usernameProblem(values.username),
    password: () => passwordProblem(values.password, values.email),
  });

/**
 * 'Create an account' → 'Register'. Every problem shows at once under its field, in plain words,
 * before anything is sent (no request while one remains); the server's answer is shown the same
 * way. On success the person is signed in with the same credentials, 'Account created.' shows and
 * the modal closes; a failed call toasts 'Something went wrong.' as in the seed.
 */
export function RegisterModal() {
  const { returnFocus } = useModalState();
  const [values, setValues] = useState<Record<Field, string>>({ email: '', name: '', username: '', password: '' });
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const register = useRegister();
  const { formRef, refocus } = useRefocus();

  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    // A message goes once the field changes; the next submit checks everything again.
    setErrors(({ [field]: _, ...rest }) => rest as FieldErrors<Field>);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (busy) return;
    const problems = check(values);
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      refocus();
      return;
    }
    setBusy(true);
    const email = values.email.trim();
    try {
      await register.mutateAsync({ email, password: values.password, username: values.username, name: values.name });
    } catch (error) {
      notifyError(t('Something went wrong.'));
      setErrors(fieldErrorsOf(error, FIELDS));
      setBusy(false);
      refocus();
      return;
    }
    try {
      const result = await signIn('credentials', { email, password: values.password, redirect: false });
      notify(t('Account created.'));
      if (!result) return;
      if (result.ok) closeModal();
      else {
        console.error('Sign-in after registering failed:', result.error);
        openModal('login');
      }
    } catch (error) {
      console.error('Sign-in after registering failed:', error);
      notify(t('Account created.'));
      openModal('login');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={t('Create an account')} onClose={closeModal} returnFocus={returnFocus}>
      <form ref={formRef} onSubmit={onSubmit} noValidate className="flex flex-col gap-2 pt-4">
        <EmailField
          value={values.email}
          onChange={set('email')}
          disabled={busy}
          submitted={submitted}
          error={errors.email}
        />
        <TextField
          label={t('Name')}
          autoComplete="name"
          value={values.name}
          onChange={(event) => set('name')(event.target.value)}
          disabled={busy}
          maxLength={LIMITS.nameMax}
          error={errors.name}
        />
        <TextField
          label={t('Username')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={values.username}
          onChange={(event) => set('username')(event.target.value)}
          disabled={busy}
          maxLength={LIMITS.usernameMax}
          error={errors.username}
        />
        <TextField
          label={t('Password')}
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={(event) => set('password')(event.target.value)}
          disabled={busy}
          error={errors.password}
        />
        <Button type="submit" size="lg" disabled={busy} className="mt-4">
          {t('Register')}
        </Button>
      </form>
      <SwitchModalLink prompt={t('Already have an account?')} to="login" disabled={busy}>
        {t('Sign In')}
      </SwitchModalLink>
    </Modal>
  );
}
