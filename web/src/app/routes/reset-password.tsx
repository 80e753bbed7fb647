import { LIMITS } from '@pipit/contract';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/button.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useResetPassword } from '../../features/auth/api/password-reset.ts';
import { t } from '../../i18n/i18n.ts';
import { ApiRequestError } from '../../lib/api-client.ts';
import { fieldErrorsOf } from '../../lib/field-errors.ts';
import { openModal } from '../../lib/modals.ts';

/**
 * `/reset-password?token=…`, where the email's link leads: a new password, then "Sign in". A link
 * that does not work (used, more than an hour old, mistyped) says so and offers a new one.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const reset = useResetPassword();
  const errors = fieldErrorsOf(reset.error, ['token', 'password'] as const);
  const tooShort = password.length > 0 && password.length < LIMITS.passwordMin;
  const other =
    reset.error && !errors.token && !errors.password
      ? reset.error instanceof ApiRequestError && reset.error.status === 429
        ? reset.error.message
        : t('Couldn’t set the password. Try again.')
      : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password.length < LIMITS.passwordMin || reset.isPending) return;
    reset.mutate({ token, password });
  };

  const badLink = !token || errors.token;
  return (
    <>
      <PageTitle>{t('Set a new password')}</PageTitle>
      <PageHeader title={t('Set a new password')} />
      {reset.isSuccess ? (
        <div role="status" className="px-4 py-6">
          <p className="text-xl font-bold">{t('Your password is set')}</p>
          <p className="mt-2 text-[15px] text-muted">
            {t('You were signed out everywhere. Sign in with your new password.')}
          </p>
          <Button className="mt-4" onClick={() => openModal('login')}>
            {t('Sign in')}
          </Button>
        </div>
      ) : badLink ? (
        <div className="px-4 py-6">
          <p role="alert" className="text-xl font-bold">
            {t('This link doesn’t work')}
          </p>
          <p className="mt-2 text-[15px] text-muted">
            {errors.token ?? t('The link is incomplete. Open it from the email again, or ask for a new one.')}
          </p>
          <Button className="mt-4" onClick={() => openModal('forgotPassword')}>
            {t('Ask for a new link')}
          </Button>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="flex flex-col gap-4 px-4 py-6">
          <p className="text-[15px] text-muted">
            {t('Choose a new password for your account. It ends every session.')}
          </p>
          <TextField
            label={t('New password')}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={
              tooShort
                ? t('Password must be at least {passwordMin} characters', { passwordMin: LIMITS.passwordMin })
                : errors.password
            }
          />
          <div className="min-h-5 text-[15px] text-danger">{other && <p role="alert">{other}</p>}</div>
          <Button
            type="submit"
            className="self-start"
            disabled={reset.isPending || password.length < LIMITS.passwordMin}
          >
            {t('Set password')}
          </Button>
        </form>
      )}
    </>
  );
}
