import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach } from 'vitest';
import { forgetCsrfToken } from '../lib/csrf.ts';
import { closeModal } from '../lib/modals.ts';

// jsdom has no object URLs (the composer shows chosen images from them).
URL.createObjectURL ??= (blob: Blob | MediaSource) => `blob:test/${blob instanceof Blob ? blob.size : 0}`;
URL.revokeObjectURL ??= () => {};
// Nor canvases (blurhash placeholders): no context, as in a browser that cannot make one.
HTMLCanvasElement.prototype.getContext = () => null;

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
