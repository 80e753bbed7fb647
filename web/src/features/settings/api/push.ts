import type { PushKind, PushState } from '@pipit/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { t } from '../../../i18n/i18n.ts';
import { call } from '../../../lib/api-client.ts';
import { settingsKeys } from '../../../state/keys.ts';

/** Whether this browser can show pushed notifications (service workers, the Push API, notifications). */
export const pushSupported = () =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** The browser said no to notifications for this site (only its own settings can undo it). */
export class PushBlocked extends Error {}

/** GET /api/push/subscription: this browser's subscription (null when off) and the server's VAPID key. */
export const usePushState = () =>
  useQuery({ queryKey: settingsKeys.push(), queryFn: () => call('pushSubscription'), enabled: pushSupported() });

const bytesOf = (base64url: string) => {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
};

/**
 * The service worker (public/sw.js), registered now: only a member who turns notifications on gets
 * one, and it never handles a request (it shows pushes and opens the app on a click).
 */
async function workerRegistration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  return navigator.serviceWorker.ready;
}

/** This browser's PushSubscription for the server's key, made if needed. */
async function browserSubscription(vapidPublicKey: string): Promise<PushSubscription> {
  const registration = await workerRegistration();
  const existing = await registration.pushManager.getSubscription();
  const key = existing?.options.applicationServerKey;
  const sameKey =
    key instanceof ArrayBuffer &&
    btoa(String.fromCharCode(...new Uint8Array(key)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '') === vapidPublicKey;
  if (existing && sameKey) return existing;
  // Made for another key (the server's keys changed): it cannot be used.
  await existing?.unsubscribe();
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytesOf(vapidPublicKey) });
}

async function save(kinds: PushKind[], vapidPublicKey: string): Promise<PushState> {
  const subscription = (await browserSubscription(vapidPublicKey)).toJSON();
  return call('savePushSubscription', {
    body: {
      endpoint: subscription.endpoint ?? '',
      keys: { p256dh: subscription.keys?.p256dh ?? '', auth: subscription.keys?.auth ?? '' },
      kinds,
    },
  });
}

/**
 * Turns notifications on this device on (with `kinds`) or off. On: the browser asks for permission
 * (only now, after the click), the service worker is registered, the browser subscribes and the server
 * keeps it. Off: the server forgets it and the browser unsubscribes.
 */
export function useDevicePush(kinds: PushKind[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (on: boolean): Promise<PushState> => {
      if (!on) {
        await call('deletePushSubscription');
        const registration = await navigator.serviceWorker.getRegistration('/');
        await (await registration?.pushManager.getSubscription())?.unsubscribe();
        return call('pushSubscription');
      }
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') throw new PushBlocked(t('Notifications are blocked for this site'));
      const state = await queryClient.fetchQuery({
        queryKey: settingsKeys.push(),
        queryFn: () => call('pushSubscription'),
      });
      return save(kinds, state.vapidPublicKey);
    },
    onSuccess: (state) => queryClient.setQueryData(settingsKeys.push(), state),
  });
}

/** One kind on or off (the browser's subscription sent again with the new kinds). */
export function usePushKind(kind: PushKind, state: PushState | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (on: boolean): Promise<PushState> => {
      const current = state?.subscription?.kinds ?? [];
      const kinds = on ? [...new Set([...current, kind])] : current.filter((k) => k !== kind);
      return save(kinds, state?.vapidPublicKey ?? '');
    },
    onSuccess: (next) => queryClient.setQueryData(settingsKeys.push(), next),
  });
}
