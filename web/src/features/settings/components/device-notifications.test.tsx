import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, noContent } from '../../../test/fetch-mock.ts';
import { renderApp, signedInRoutes } from '../../../test/render.tsx';
import { DeviceNotifications } from './device-notifications.tsx';

const KEY = 'BPcMbmSmvx1YTd3CLGfdgXzsdj4PB-sAblhxhG5-bFs6-OEsyi3pBbqpVdiNuyKvUa1ln0lrHgH7vUUCcsI7c5A';
const ENDPOINT = 'https://push.example/send/abc';

/** A browser that can push: a service worker container, PushManager and Notification, all stand-ins. */
function pushCapableBrowser() {
  let subscription: unknown = null;
  const pushManager = {
    getSubscription: vi.fn(async () => subscription),
    subscribe: vi.fn(async () => {
      subscription = {
        options: { applicationServerKey: null },
        toJSON: () => ({ endpoint: ENDPOINT, keys: { p256dh: 'p256dh-key', auth: 'auth-secret' } }),
        unsubscribe: vi.fn(async () => true),
      };
      return subscription;
    }),
  };
  const registration = { pushManager };
  vi.stubGlobal('PushManager', class {});
  const requestPermission = vi.fn(async () => 'granted');
  vi.stubGlobal('Notification', { permission: 'default', requestPermission });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      register: vi.fn(async () => registration),
      ready: Promise.resolve(registration),
      getRegistration: vi.fn(async () => registration),
    },
  });
  return {
    requestPermission,
    pushManager,
    register: (navigator.serviceWorker as unknown as { register: ReturnType<typeof vi.fn> }).register,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('Notifications on this device', () => {
  it('says so when the browser cannot push', async () => {
    mockFetch(signedInRoutes());
    renderApp(<DeviceNotifications />);
    expect(await screen.findByText('This browser cannot show notifications from Pipit.')).toBeInTheDocument();
  });

  it('asks for permission only on the click, subscribes, saves the kinds; a kind off and then off altogether', async () => {
    const browser = pushCapableBrowser();
    let state: unknown = { vapidPublicKey: KEY, subscription: null };
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/push/subscription': () => json(state),
      'PUT /api/push/subscription': (call) => {
        const body = JSON.parse(call.body ?? '{}');
        state = { vapidPublicKey: KEY, subscription: { endpoint: body.endpoint, kinds: body.kinds } };
        return json(state);
      },
      'DELETE /api/push/subscription': () => {
        state = { vapidPublicKey: KEY, subscription: null };
        return noContent();
      },
    });
    renderApp(<DeviceNotifications />);
    const user = userEvent.setup();
    const main = await screen.findByRole('checkbox', { name: 'Show notifications on this device' });
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(browser.register).not.toHaveBeenCalled();
    await user.click(main);
    await waitFor(() => expect(server.callsTo('PUT', '/api/push/subscription')).toHaveLength(1));
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
    expect(JSON.parse(server.callsTo('PUT', '/api/push/subscription')[0]?.body ?? '')).toEqual({
      endpoint: ENDPOINT,
      keys: { p256dh: 'p256dh-key', auth: 'auth-secret' },
      kinds: ['reply', 'mention', 'follow', 'like', 'repost'],
    });
    const likes = await screen.findByRole('checkbox', { name: 'Likes' });
    await user.click(likes);
    await waitFor(() => expect(server.callsTo('PUT', '/api/push/subscription')).toHaveLength(2));
    expect(JSON.parse(server.callsTo('PUT', '/api/push/subscription')[1]?.body ?? '').kinds).toEqual([
      'reply',
      'mention',
      'follow',
      'repost',
    ]);
    await user.click(screen.getByRole('checkbox', { name: 'Show notifications on this device' }));
    await waitFor(() => expect(server.callsTo('DELETE', '/api/push/subscription')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'Likes' })).not.toBeInTheDocument());
  });

  it('says when the browser refused permission, and saves nothing', async () => {
    const browser = pushCapableBrowser();
    browser.requestPermission.mockResolvedValue('denied');
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/push/subscription': () => json({ vapidPublicKey: KEY, subscription: null }),
    });
    renderApp(<DeviceNotifications />);
    await userEvent.setup().click(await screen.findByRole('checkbox', { name: 'Show notifications on this device' }));
    expect(await screen.findByText(/Notifications are blocked for Pipit in this browser/)).toBeInTheDocument();
    expect(browser.requestPermission).toHaveBeenCalled();
    expect(server.callsTo('PUT', '/api/push/subscription')).toHaveLength(0);
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
  });
});
