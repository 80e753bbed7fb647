import { toast } from 'sonner';

/**
 * Toasts carry their own live-region role so they are announced (and findable by role):
 * status for news, alert for failures.
 */
export function notify(message: string) {
  toast(<span role="status">{message}</span>);
}

export function notifyError(message: string) {
  toast.error(<span role="alert">{message}</span>);
}
