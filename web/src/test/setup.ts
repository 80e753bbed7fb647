import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { forgetCsrfToken } from '../lib/csrf.ts';
import { closeModal } from '../lib/modals.ts';

afterEach(() => {
  cleanup();
  closeModal();
  forgetCsrfToken();
  localStorage.clear();
  sessionStorage.clear();
});
