import { SIGN_IN_ERRORS } from '@pipit/contract';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useRefocus } from '../../../components/use-refocus.ts';
import { t } from '../../../i18n/i18n.ts';
import { rich } from '../../../i18n/rich.tsx';
import { call } from '../../../lib/api-client.ts';
import { closeModal, openModal, useModalState } from '../../../lib/modals.ts';
import { type SignInResult, signIn } from '../../../lib/session.ts';
import { EmailField, isValidEmail } from './email-field.tsx';
import { SwitchModalLink } from './switch-modal-link.tsx';

/** "Try again in 30 seconds.", "… in 1 minute.", "… in 4 minutes." */
function tryAgainIn(seconds: number): string {
  if (seconds <= 60)
    return t('Too many sign-in attempts. Try again in {count, plural, one {# second} other {# seconds}}.', {
      count: seconds,
    });
  return t('Too many sign-in attempts. Try again in {count, plural, one {# minute} other {# minutes}}.', {
    count: Math.ceil(seconds / 60),
  });
}

/** What a failed sign-in tells the person (docs/product-decisions.md: the seed shows nothing). */
export function signInProblem(result: Pick<SignInResult, 'error' | 'status' | 'retryAfter'> | null): string {
  if (result?.status === 429 || result?.error === 'RateLimited') {
    return result.retryAfter ? tryAgainIn(result.retryAfter) : t('Too many sign-in attempts. Try again later.');
  }
  if (result?.error === 'CredentialsSignin') return t('Wrong email or password.');
  if (result?.error === 'AccountSuspended') return t('This account is suspended.');
  if (result?.error === SIGN_IN_ERRORS.twoFactorInvalid) return t('That code isn’t right, or it was used already.');
  if (result?.error === SIGN_IN_ERRORS.passkeyInvalid)
    return t('That passkey didn’t work here. Try again or use your password.');
  return t('Couldn’t sign in. Try again.');
}

/** Why the sign-in page was opened, from its `error` query (the protocol's redirects). */
function noticeOf(error: string | null): { text: string; problem: boolean } | null {
  if (!error) return null;
  if (error === 'SessionRequired') return { text: t('Sign in to see this page.'), problem: false };
  return { text: signInProblem({ error, status: 0, retryAfter: null }), problem: true };
}

/** Whether this browser can sign in with a passkey at all. */
const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/**
 * A passkey's answer to this server's challenge (the WebAuthn library is loaded only now), or null
 * when the person closed the browser's prompt.
 */
async function passkeyAnswer(): Promise<string | null> {
  const [optionsJSON, { startAuthentication }] = await Promise.all([
    call('passkeySignInOptions'),
    import('@simplewebauthn/browser'),
  ]);
  try {
    return JSON.stringify(await startAuthentication({ optionsJSON: optionsJSON as never }));
  } catch (error) {
    if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) return null;
    throw error;
  }
}

/**
 * 'Login' → 'Sign In'. A failed sign-in is logged to the console, as in the seed, and also said
 * in the modal (wrong email or password; when to try again after too many attempts); the modal
 * stays open with what was typed and focus goes back to the password. An account with two-factor
 * sign-in answers TwoFactorRequired: the modal then asks for the code and sends the password again
 * with it (docs/security.md). "Use a passkey" needs neither.
 */
export function LoginModal() {
  const { returnFocus } = useModalState();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  /** Asking for the second factor: the password was right. */
  const [codeStep, setCodeStep] = useState(false);
  /** Verify was pressed in the code step (an empty code is said only then). */
  const [codeSubmitted, setCodeSubmitted] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice] = useState(() => noticeOf(params.get('error')));
  const { formRef, refocus } = useRefocus();

  /** Sends the sign-in; answers whether the modal may close. */
  const attempt = async (fields: { email?: string; password?: string; totp?: string; passkey?: string }) => {
    const result = await signIn('credentials', { ...fields, redirect: false });
    // undefined: the page is on its way to the protocol's error or sign-in page.
    if (!result) return;
    if (result.ok) {
      closeModal();
      return;
    }
    if (result.error === SIGN_IN_ERRORS.twoFactorRequired) {
      setCodeStep(true);
      refocus('input[autocomplete="one-time-code"]');
      return;
    }
    console.error('Sign-in failed:', result.error ?? 'no answer');
    setProblem(signInProblem(result));
    if (result.error === 'CredentialsSignin') setCodeStep(false);
    refocus(
      codeStep && result.error === SIGN_IN_ERRORS.twoFactorInvalid
        ? 'input[autocomplete="one-time-code"]'
        : 'input[type="password"]',
    );
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (busy) return;
    if (!isValidEmail(email)) {
      refocus();
      return;
    }
    if (codeStep) setCodeSubmitted(true);
    if (codeStep && !code.trim()) {
      refocus('input[autocomplete="one-time-code"]');
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await attempt({ email: email.trim(), password, ...(codeStep ? { totp: code.trim() } : {}) });
    } catch (error) {
      console.error('Sign-in failed:', error);
      setProblem(signInProblem(null));
      refocus('input[type="password"]');
    } finally {
      setBusy(false);
    }
  };

  const withPasskey = async () => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      const passkey = await passkeyAnswer();
      if (passkey) await attempt({ passkey });
    } catch (error) {
      console.error('Passkey sign-in failed:', error);
      setProblem(signInProblem({ error: SIGN_IN_ERRORS.passkeyInvalid, status: 0, retryAfter: null }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={t('Login')} onClose={closeModal} returnFocus={returnFocus}>
      {notice && !problem && (
        <p className={notice.problem ? 'pt-2 text-[15px] text-danger' : 'pt-2 text-[15px] text-fg'}>{notice.text}</p>
      )}
      <form ref={formRef} onSubmit={onSubmit} noValidate className="flex flex-col gap-2 pt-4">
        {codeStep ? (
          <>
            <p className="text-[15px]">
              {rich(
                t('Enter the 6-digit code from your authenticator app for <0>{email}</0>.', { email: email.trim() }),
                [(shown) => <span className="font-bold">{shown}</span>],
              )}
            </p>
            <p className="text-[15px] text-muted">{t('Lost your phone? Enter one of your recovery codes instead.')}</p>
            <TextField
              label={t('Two-factor code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              disabled={busy}
              error={codeSubmitted && !code.trim() ? t('Enter the code') : null}
            />
          </>
        ) : (
          <>
            <EmailField value={email} onChange={setEmail} disabled={busy} submitted={submitted} />
            <TextField
              label={t('Password')}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              disabled={busy}
            />
          </>
        )}
        {/* An alert is announced as it is inserted; the box keeps its height so nothing jumps. */}
        <div className="min-h-5 text-[15px] text-danger">{problem && <p role="alert">{problem}</p>}</div>
        {codeStep ? (
          <button
            type="button"
            onClick={() => {
              setCodeStep(false);
              setCodeSubmitted(false);
              setCode('');
              setProblem(null);
            }}
            disabled={busy}
            className="self-start text-[15px] font-medium text-accent hover:underline disabled:opacity-50"
          >
            {t('Back')}
          </button>
        ) : (
          /* Not in the seed: a way back in for a forgotten password (docs/product-decisions.md). */
          <button
            type="button"
            onClick={() => openModal('forgotPassword')}
            disabled={busy}
            className="self-start text-[15px] font-medium text-accent hover:underline disabled:opacity-50"
          >
            {t('Forgot password?')}
          </button>
        )}
        <Button type="submit" size="lg" disabled={busy} className="mt-2">
          {codeStep ? t('Verify') : t('Sign In')}
        </Button>
        {!codeStep && passkeysSupported() && (
          <Button variant="secondary" size="lg" disabled={busy} onClick={withPasskey}>
            {t('Use a passkey')}
          </Button>
        )}
      </form>
      <SwitchModalLink prompt={t('First time using Pipit?')} to="register" disabled={busy}>
        {t('Create an account')}
      </SwitchModalLink>
    </Modal>
  );
}
