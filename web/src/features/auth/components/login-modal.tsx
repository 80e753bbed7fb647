import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useRefocus } from '../../../components/use-refocus.ts';
import { closeModal, openModal, useModalState } from '../../../lib/modals.ts';
import { type SignInResult, signIn } from '../../../lib/session.ts';
import { EmailField, isValidEmail } from './email-field.tsx';
import { SwitchModalLink } from './switch-modal-link.tsx';

/** "30 seconds", "1 minute", "4 minutes". */
function waitFor(seconds: number): string {
  if (seconds <= 60) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** What a failed sign-in tells the person (docs/product-decisions.md: the seed shows nothing). */
export function signInProblem(result: Pick<SignInResult, 'error' | 'status' | 'retryAfter'> | null): string {
  if (result?.status === 429 || result?.error === 'RateLimited') {
    return result.retryAfter
      ? `Too many sign-in attempts. Try again in ${waitFor(result.retryAfter)}.`
      : 'Too many sign-in attempts. Try again later.';
  }
  if (result?.error === 'CredentialsSignin') return 'Wrong email or password.';
  if (result?.error === 'AccountSuspended') return 'This account is suspended.';
  return 'Couldn’t sign in. Try again.';
}

/** Why the sign-in page was opened, from its `error` query (the protocol's redirects). */
function noticeOf(error: string | null): { text: string; problem: boolean } | null {
  if (!error) return null;
  if (error === 'SessionRequired') return { text: 'Sign in to see this page.', problem: false };
  return { text: signInProblem({ error, status: 0, retryAfter: null }), problem: true };
}

/**
 * 'Login' → 'Sign In'. A failed sign-in is logged to the console, as in the seed, and also said
 * in the modal (wrong email or password; when to try again after too many attempts); the modal
 * stays open with what was typed and focus goes back to the password.
 */
export function LoginModal() {
  const { returnFocus } = useModalState();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice] = useState(() => noticeOf(params.get('error')));
  const { formRef, refocus } = useRefocus();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (busy) return;
    if (!isValidEmail(email)) {
      refocus();
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const result = await signIn('credentials', { email: email.trim(), password, redirect: false });
      // undefined: the page is on its way to the protocol's error or sign-in page.
      if (!result) return;
      if (result.ok) {
        closeModal();
        return;
      }
      console.error('Sign-in failed:', result.error ?? 'no answer');
      setProblem(signInProblem(result));
      refocus('input[type="password"]');
    } catch (error) {
      console.error('Sign-in failed:', error);
      setProblem(signInProblem(null));
      refocus('input[type="password"]');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title="Login" onClose={closeModal} returnFocus={returnFocus}>
      {notice && !problem && (
        <p className={notice.problem ? 'pt-2 text-[15px] text-danger' : 'pt-2 text-[15px] text-fg'}>{notice.text}</p>
      )}
      <form ref={formRef} onSubmit={onSubmit} noValidate className="flex flex-col gap-2 pt-4">
        <EmailField value={email} onChange={setEmail} disabled={busy} submitted={submitted} />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          disabled={busy}
        />
        {/* An alert is announced as it is inserted; the box keeps its height so nothing jumps. */}
        <div className="min-h-5 text-[15px] text-danger">{problem && <p role="alert">{problem}</p>}</div>
        {/* Not in the seed: a way back in for a forgotten password (docs/product-decisions.md). */}
        <button
          type="button"
          onClick={() => openModal('forgotPassword')}
          disabled={busy}
          className="self-start text-[15px] font-medium text-accent hover:underline disabled:opacity-50"
        >
          Forgot password?
        </button>
        <Button type="submit" size="lg" disabled={busy} className="mt-2">
          Sign In
        </Button>
      </form>
      <SwitchModalLink prompt="First time using Pipit?" to="register" disabled={busy}>
        Create an account
      </SwitchModalLink>
    </Modal>
  );
}
