import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { t } from '../../../i18n/i18n.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { fieldErrorsOf, formProblem } from '../../../lib/field-errors.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useChangeEmail } from '../api/settings.ts';

/** Change email: the new address and the password, as proof. */
export function EmailForm({ current }: { current: string }) {
  const [email, setEmail] = useState(current);
  const [password, setPassword] = useState('');
  const change = useChangeEmail();
  const errors = fieldErrorsOf(change.error, ['email', 'password'] as const);
  const taken = change.error instanceof ApiRequestError && change.error.code === 'EMAIL_TAKEN';
  const unchanged = email.trim().toLowerCase() === current.toLowerCase();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (unchanged || !password) return;
    change.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (me) => {
          setEmail(me.email);
          setPassword('');
          notify(t('Email changed'));
        },
        onError: (error) => {
          const problem = formProblem(error, t('Couldn’t change your email. Try again.'));
          if (problem) notifyError(problem);
        },
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      aria-labelledby="email-heading"
      className="flex flex-col gap-4 border-t border-line px-4 py-4"
    >
      <h2 id="email-heading" className="text-xl font-bold">
        {t('Email')}
      </h2>
      <TextField
        label={t('Email')}
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={taken ? t('An account with this email already exists.') : errors.email}
      />
      <TextField
        label={t('Password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={errors.password}
      />
      <Button type="submit" className="self-start" disabled={change.isPending || unchanged || !password}>
        {t('Change email')}
      </Button>
    </form>
  );
}
