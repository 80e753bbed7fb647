import { lazy, Suspense, useEffect, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { callbackPath } from '../lib/callback-url.ts';
import { openModal, useModalState } from '../lib/modals.ts';
import { useViewer } from '../state/viewer.tsx';

const modals = {
  login: () => import('../features/auth/components/login-modal.tsx'),
  register: () => import('../features/auth/components/register-modal.tsx'),
  forgotPassword: () => import('../features/auth/components/forgot-password-modal.tsx'),
  editProfile: () => import('../features/profile/components/edit-profile-modal.tsx'),
  compose: () => import('../features/compose/components/compose-modal.tsx'),
};
const LoginModal = lazy(() => modals.login().then((m) => ({ default: m.LoginModal })));
const RegisterModal = lazy(() => modals.register().then((m) => ({ default: m.RegisterModal })));
const ForgotPasswordModal = lazy(() => modals.forgotPassword().then((m) => ({ default: m.ForgotPasswordModal })));
const EditProfileModal = lazy(() => modals.editProfile().then((m) => ({ default: m.EditProfileModal })));
const ComposeModal = lazy(() => modals.compose().then((m) => ({ default: m.ComposeModal })));

/** What starts a person's first interaction: the press comes before its click, a key before its action. */
const INTENT = ['pointerdown', 'keydown', 'touchstart'] as const;

/**
 * Loads the sign-in modals' chunks (a visitor's likely next step, ~5 kB with their form rules) at
 * the person's first press or key, so the click that follows opens one at once, while a first visit
 * that only reads downloads none of it (the Home budget, docs/performance.md). The others load
 * when opened: the profile editor alone is 8 kB.
 */
export function prefetchModals() {
  const load = () => {
    for (const type of INTENT) window.removeEventListener(type, load, true);
    for (const modal of [modals.login, modals.register]) modal().catch(() => {});
  };
  for (const type of INTENT) window.addEventListener(type, load, { capture: true, passive: true });
}

/** Where to go once signed in: the callback (same origin only), without the sign-in query. */
function afterSignIn(callbackUrl: string | null, here: string): string {
  const target = new URL(callbackPath(callbackUrl) ?? here, window.location.origin);
  target.searchParams.delete('callbackUrl');
  target.searchParams.delete('error');
  return `${target.pathname}${target.search}${target.hash}`;
}

/**
 * Renders the open app-wide modal. The server sends a sign-in that is needed to
 * `/?callbackUrl=…&error=…`: that opens Login, and once signed in the app goes to the callback;
 * closing Login instead just drops the query.
 */
export function ModalHost() {
  const { name } = useModalState();
  const { status } = useViewer();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const wantsLogin = params.has('callbackUrl') || params.has('error');
  const loginRequest = wantsLogin ? `${params.get('callbackUrl')}|${params.get('error')}` : null;
  const handledRequest = useRef<string | null>(null);
  const previousName = useRef(name);

  useEffect(() => {
    if (!loginRequest || status === 'loading') return;
    if (status === 'authenticated') {
      navigate(afterSignIn(params.get('callbackUrl'), location.pathname), { replace: true });
      return;
    }
    // Once per request: closing the modal must not bring it back.
    if (handledRequest.current === loginRequest) return;
    handledRequest.current = loginRequest;
    openModal('login');
  }, [loginRequest, status, params, navigate, location.pathname]);

  useEffect(() => {
    const closed = previousName.current !== null && name === null;
    previousName.current = name;
    if (closed && wantsLogin && status === 'unauthenticated') {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('callbackUrl');
          next.delete('error');
          return next;
        },
        { replace: true },
      );
    }
  }, [name, wantsLogin, status, setParams]);

  return (
    <Suspense fallback={null}>
      {name === 'login' && <LoginModal />}
      {name === 'register' && <RegisterModal />}
      {name === 'forgotPassword' && <ForgotPasswordModal />}
      {name === 'editProfile' && <EditProfileModal />}
      {name === 'compose' && <ComposeModal />}
    </Suspense>
  );
}
