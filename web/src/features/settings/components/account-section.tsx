import { api } from '@pipit/contract';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { t } from '../../../i18n/i18n.ts';
import { fieldErrorsOf, formProblem } from '../../../lib/field-errors.ts';
import { paths } from '../../../lib/paths.ts';
import { signOut } from '../../../lib/session.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useDeleteAccount } from '../api/settings.ts';

/** "Your data": everything of the member's as a zip (archive.json and their images). */
export function DataSection() {
  return (
    <SettingsSection id="data-heading" title={t('Your data')} padded>
      <p className="mt-2 text-[15px] text-muted">
        {t(
          'A zip of your profile, posts and their images, whom you follow and who follows you, your likes and bookmarks.',
        )}
      </p>
      <a
        href={api.accountExport}
        download
        className="mt-3 inline-flex h-9 items-center rounded-full border border-line-strong px-4 font-bold hover:bg-surface-2"
      >
        {t('Download your data')}
      </a>
    </SettingsSection>
  );
}

/**
 * "Delete account": the password, then a confirmation. Everything of theirs goes; the app signs out
 * and goes Home.
 */
export function DeleteAccountSection() {
  const [password, setPassword] = useState('');
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteAccount();
  const navigate = useNavigate();
  const errors = fieldErrorsOf(remove.error, ['password'] as const);

  const ask = (event: FormEvent) => {
    event.preventDefault();
    if (password) setConfirming(true);
  };
  const confirm = () =>
    remove.mutate(password, {
      onSuccess: async () => {
        setConfirming(false);
        // Home first: signing out on a members-only page would ask to sign in there.
        await navigate(paths.home);
        await signOut({ redirect: false, callbackUrl: `${window.location.origin}${paths.home}` }).catch(() => {});
        notify(t('Your account was deleted'));
      },
      onError: (error) => {
        setConfirming(false);
        const problem = formProblem(error, t('Couldn’t delete your account. Try again.'));
        if (problem) notifyError(problem);
      },
    });

  return (
    <form
      onSubmit={ask}
      aria-labelledby="delete-heading"
      className="flex flex-col gap-3 border-t border-line px-4 py-4"
    >
      <h2 id="delete-heading" className="text-xl font-bold">
        {t('Delete account')}
      </h2>
      <p className="text-[15px] text-muted">
        {t(
          'Your profile, posts, likes, follows, bookmarks and notifications are deleted for good. Download your data first if you want to keep it.',
        )}
      </p>
      <TextField
        label={t('Your password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={errors.password}
      />
      <Button type="submit" variant="danger" className="self-start" disabled={!password || remove.isPending}>
        {t('Delete account')}
      </Button>
      {confirming && (
        <ConfirmDialog
          title={t('Delete your account?')}
          confirm={t('Delete')}
          variant="danger"
          busy={remove.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        >
          <p>{t('This can’t be undone.')}</p>
        </ConfirmDialog>
      )}
    </form>
  );
}
