import { LIMITS } from '@pipit/contract';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { t } from '../../../i18n/i18n.ts';
import { fieldErrorsOf, formProblem } from '../../../lib/field-errors.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useChangePassword } from '../api/settings.ts';

/** Change password: the current one, the new one; every other browser is signed out after. */
export function PasswordForm() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const change = useChangePassword();
  const errors = fieldErrorsOf(change.error, ['currentPassword', 'newPassword'] as const);
  const tooShort = newPassword.length > 0 && newPassword.length < LIMITS.passwordMin;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!currentPassword || newPassword.length < LIMITS.passwordMin) return;
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrent('');
          setNew('');
          notify(t('Password changed. Your other sessions were signed out.'));
        },
        onError: (error) => {
          const problem = formProblem(error, t('Couldn’t change your password. Try again.'));
          if (problem) notifyError(problem);
        },
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      aria-labelledby="password-heading"
      className="flex flex-col gap-4 border-t border-line px-4 py-4"
    >
      <h2 id="password-heading" className="text-xl font-bold">
        {t('Password')}
      </h2>
      <TextField
        label={t('Current password')}
        type="password"
        autoComplete="current-password"
        value={currentPassword}
        onChange={(event) => setCurrent(event.target.value)}
        error={errors.currentPassword}
      />
      <TextField
        label={t('New password')}
        type="password"
        autoComplete="new-password"
        value={newPassword}
        onChange={(event) => setNew(event.target.value)}
        error={
          tooShort
            ? t('Password must be at least {passwordMin} characters', { passwordMin: LIMITS.passwordMin })
            : errors.newPassword
        }
        hint={t('Changing it signs you out everywhere else.')}
      />
      <Button
        type="submit"
        className="self-start"
        disabled={change.isPending || !currentPassword || newPassword.length < LIMITS.passwordMin}
      >
        {t('Change password')}
      </Button>
    </form>
  );
}
