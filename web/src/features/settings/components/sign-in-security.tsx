import { type PasskeyInfo, RECOVERY_CODE_COUNT, type TwoFactorSetup } from '@pipit/contract';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { ErrorState, Spinner } from '../../../components/states.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { t } from '../../../i18n/i18n.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { fieldErrorsOf, formProblem } from '../../../lib/field-errors.ts';
import { fullDate } from '../../../lib/format-time.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import {
  useAddPasskey,
  usePasskeys,
  useRemovePasskey,
  useTwoFactor,
  useTwoFactorDisable,
  useTwoFactorEnable,
  useTwoFactorSetup,
} from '../api/sign-in-security.ts';

/**
 * Settings' sign-in security: two-factor sign-in (an authenticator app's codes, recovery codes) and
 * passkeys. Loaded on its own (settings.tsx lazy-loads it), so neither it nor the WebAuthn library
 * weighs on any other page.
 */
export default function SignInSecurity() {
  return (
    <>
      <TwoFactorSection />
      <PasskeysSection />
    </>
  );
}

/** The base32 secret in groups of four, easier to type. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function TwoFactorSection() {
  const status = useTwoFactor();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <SettingsSection id="two-factor-heading" title={t('Two-factor sign-in')} padded>
      {status.isPending ? (
        <Spinner label={t('Loading two-factor sign-in')} />
      ) : status.isError ? (
        <ErrorState message={t('Couldn’t load two-factor sign-in.')} onRetry={() => status.refetch()} />
      ) : codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : setup ? (
        <ConfirmSetup
          setup={setup}
          onCancel={() => setSetup(null)}
          onEnabled={(recoveryCodes) => {
            setSetup(null);
            setCodes(recoveryCodes);
          }}
        />
      ) : status.data.enabled ? (
        <TurnOff recoveryCodesLeft={status.data.recoveryCodesLeft} />
      ) : (
        <TurnOn onSetup={setSetup} />
      )}
    </SettingsSection>
  );
}

function TurnOn({ onSetup }: { onSetup: (setup: TwoFactorSetup) => void }) {
  const [password, setPassword] = useState('');
  const start = useTwoFactorSetup();
  const errors = fieldErrorsOf(start.error, ['password'] as const);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) return;
    start.mutate(
      { password },
      {
        onSuccess: onSetup,
        onError: (error) => {
          const problem = formProblem(error, t('Couldn’t start setting up two-factor sign-in. Try again.'));
          if (problem) notifyError(problem);
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="mt-2 flex flex-col gap-4">
      <p className="text-[15px] text-muted">
        {t(
          'Off. Turn it on and signing in asks for a code from an authenticator app on your phone after your password.',
        )}
      </p>
      <TextField
        label={t('Password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={errors.password}
      />
      <Button type="submit" className="self-start" disabled={start.isPending || !password}>
        {t('Turn on')}
      </Button>
    </form>
  );
}

function ConfirmSetup({
  setup,
  onCancel,
  onEnabled,
}: {
  setup: TwoFactorSetup;
  onCancel: () => void;
  onEnabled: (codes: string[]) => void;
}) {
  const [code, setCode] = useState('');
  const enable = useTwoFactorEnable();
  const errors = fieldErrorsOf(enable.error, ['code'] as const);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return;
    enable.mutate(code, {
      onSuccess: ({ recoveryCodes }) => onEnabled(recoveryCodes),
      onError: (error) => {
        const problem = formProblem(error, t('Couldn’t turn on two-factor sign-in. Try again.'));
        if (problem) notifyError(problem);
      },
    });
  };
  return (
    <form onSubmit={submit} className="mt-2 flex flex-col gap-4">
      <p className="text-[15px]">
        {t('Scan this QR code with your authenticator app, or type the key into it. Then enter the code it shows.')}
      </p>
      <div className="flex flex-wrap items-center gap-4">
        <img
          src={setup.qrCode}
          alt={t('QR code for your authenticator app')}
          width={176}
          height={176}
          className="rounded-md bg-white p-1"
        />
        <div className="min-w-0">
          <p id="two-factor-key" className="text-[13px] text-muted">
            {t('Key')}
          </p>
          <code
            aria-describedby="two-factor-key"
            className="block font-mono text-[15px] break-all"
            data-secret={setup.secret}
          >
            {grouped(setup.secret)}
          </code>
        </div>
      </div>
      <TextField
        label={t('Code from the app')}
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(event) => setCode(event.target.value)}
        error={errors.code}
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={enable.isPending || !code.trim()}>
          {t('Confirm')}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={enable.isPending}>
          {t('Cancel')}
        </Button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      notify(t('Recovery codes copied'));
    } catch {
      notifyError(t('Couldn’t copy. Select the codes and copy them yourself.'));
    }
  };
  return (
    <div className="mt-2 flex flex-col gap-4">
      <p className="text-[15px] font-bold">{t('Two-factor sign-in is on.')}</p>
      <p className="text-[15px]">
        {t(
          'Keep these {count} recovery codes somewhere safe. If you lose your phone, each one signs you in once instead of a code. They are shown only now.',
          { count: RECOVERY_CODE_COUNT },
        )}
      </p>
      <ul aria-label={t('Recovery codes')} className="grid grid-cols-1 gap-1 font-mono text-[15px] sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Button variant="secondary" onClick={copy}>
          {t('Copy')}
        </Button>
        <Button onClick={onDone}>{t('Done')}</Button>
      </div>
    </div>
  );
}

function TurnOff({ recoveryCodesLeft }: { recoveryCodesLeft: number }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const disable = useTwoFactorDisable();
  const errors = fieldErrorsOf(disable.error, ['password', 'code'] as const);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password || !code.trim()) return;
    disable.mutate(
      { password, code },
      {
        onSuccess: () => {
          setPassword('');
          setCode('');
          notify(t('Two-factor sign-in is off'));
        },
        onError: (error) => {
          const problem = formProblem(error, t('Couldn’t turn off two-factor sign-in. Try again.'));
          if (problem) notifyError(problem);
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="mt-2 flex flex-col gap-4">
      <p className="text-[15px]">
        {t('On. Signing in asks for a code from your authenticator app.')}{' '}
        <span className="text-muted">
          {t('{count, plural, one {# recovery code left.} other {# recovery codes left.}}', {
            count: recoveryCodesLeft,
          })}
        </span>
      </p>
      <p className="text-[15px] text-muted">
        {t('To turn it off, enter your password and a code (or a recovery code).')}
      </p>
      <TextField
        label={t('Password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={errors.password}
      />
      <TextField
        label={t('Code')}
        autoComplete="one-time-code"
        value={code}
        onChange={(event) => setCode(event.target.value)}
        error={errors.code}
      />
      <Button type="submit" variant="danger" className="self-start" disabled={disable.isPending || !password || !code}>
        {t('Turn off')}
      </Button>
    </form>
  );
}

/** Whether this browser can make and use passkeys at all. */
const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** What a failed add means, in plain words (null: the form shows it under its field). */
function addProblem(error: unknown): string | null {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return t('The passkey wasn’t made: the prompt was closed.');
  if (name === 'InvalidStateError') return t('This device already has a passkey for your account.');
  if (error instanceof ApiRequestError && error.field === 'response') return error.message;
  return formProblem(error, t('Couldn’t add the passkey. Try again.'));
}

function PasskeyRow({ passkey }: { passkey: PasskeyInfo }) {
  const remove = useRemovePasskey();
  return (
    <li className="flex items-center gap-3 border-b border-line px-4 py-3">
      <div className="min-w-0 flex-1">
        <p className="truncate font-bold">{passkey.name}</p>
        <p className="text-[13px] text-muted">
          {passkey.lastUsedAt
            ? t('Added {added} · Last used {used}', {
                added: fullDate(passkey.createdAt),
                used: fullDate(passkey.lastUsedAt),
              })
            : t('Added {added} · Not used yet', { added: fullDate(passkey.createdAt) })}
        </p>
      </div>
      <Button
        variant="secondary"
        size="sm"
        aria-label={t('Remove {name}', { name: passkey.name })}
        disabled={remove.isPending}
        onClick={() =>
          remove.mutate(passkey.id, {
            onSuccess: () => notify(t('Removed {name}', { name: passkey.name })),
            onError: () => notifyError(t('Couldn’t remove that passkey. Try again.')),
          })
        }
      >
        {t('Remove')}
      </Button>
    </li>
  );
}

function PasskeysSection() {
  const list = usePasskeys();
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const errors = fieldErrorsOf(add.error, ['name', 'password'] as const);
  const supported = passkeysSupported();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !password) return;
    add.mutate(
      { name: name.trim(), password },
      {
        onSuccess: (passkey) => {
          setName('');
          setPassword('');
          notify(t('Added {name}', { name: passkey.name }));
        },
        onError: (error) => {
          const problem = addProblem(error);
          if (problem) notifyError(problem);
        },
      },
    );
  };

  return (
    <SettingsSection id="passkeys-heading" title={t('Passkeys')}>
      <p className="px-4 pb-2 text-[15px] text-muted">
        {t('Sign in with your fingerprint, face or screen lock instead of your password and a code.')}
      </p>
      {list.isPending ? (
        <Spinner label={t('Loading passkeys')} />
      ) : list.isError ? (
        <ErrorState message={t('Couldn’t load your passkeys.')} onRetry={() => list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <p className="px-4 pb-2 text-[15px]">{t('No passkeys yet.')}</p>
      ) : (
        <ul aria-label={t('Passkeys')} className="border-t border-line">
          {list.data.items.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} />
          ))}
        </ul>
      )}
      {supported ? (
        <form onSubmit={submit} className="flex flex-col gap-4 px-4 py-4">
          <TextField
            label={t('Passkey name')}
            value={name}
            maxLength={64}
            placeholder={t('My phone')}
            onChange={(event) => setName(event.target.value)}
            error={errors.name}
          />
          <TextField
            label={t('Password')}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={errors.password}
          />
          <Button type="submit" className="self-start" disabled={add.isPending || !name.trim() || !password}>
            {t('Add a passkey')}
          </Button>
        </form>
      ) : (
        <p className="px-4 py-4 text-[15px] text-muted">{t('This browser can’t make passkeys.')}</p>
      )}
    </SettingsSection>
  );
}
