import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach } from 'vitest';
import { forgetCsrfToken } from '../lib/csrf.ts';
import { closeModal } from '../lib/modals.ts';

// Lazy chunks are transformed on first use; a busy machine needs more than the default second.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  // Sonner keeps active toasts in a module-wide store and replays them to the next Toaster.
  toast.dismiss();
  closeModal();
  forgetCsrfToken();
  localStorage.clear();
  sessionStorage.clear();
});
