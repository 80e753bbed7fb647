// Pipit's service worker (registered from Settings when a member turns on notifications on this
// device). It shows what the server pushes and opens the app on a click — nothing else. It has no
// fetch handler, so it never answers a request: the app, /api/, /api/auth, /oauth/, /.well-known/,
// /nodeinfo and the federation's paths all go to the network as if it were not there.

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** A URL of this origin to open on a click (a push never sends the app elsewhere). */
function ownUrl(value) {
  try {
    const url = new URL(value, self.location.origin);
    if (url.origin === self.location.origin) return url.href;
  } catch {
    // not a URL: the notifications page
  }
  return new URL('/notifications', self.location.origin).href;
}

// The payload is the server's (server/src/modules/push/push.payload.ts): title, body, icon, url.
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === 'string' && data.title !== '' ? data.title : 'Pipit';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      icon: typeof data.icon === 'string' ? data.icon : '/icons/icon-192.png',
      badge: '/icons/badge-96.png',
      tag: data.notification_id ? `notification-${data.notification_id}` : undefined,
      data: { url: ownUrl(data.url) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = ownUrl(event.notification.data?.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        try {
          await open.navigate(url);
          return;
        } catch {
          // a window this worker does not control: a new one below
        }
      }
      await self.clients.openWindow(url);
    })(),
  );
});
