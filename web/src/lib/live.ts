import { api, type LiveEvent, type LiveEventType } from '@pipit/contract';

/** Every event type the stream sends (an SSE listener is per type): a type left out fails to compile. */
const TYPES = Object.keys({
  'post.created': true,
  'post.deleted': true,
  'post.updated': true,
  'post.card': true,
  notification: true,
  'notifications.read': true,
  conversation: true,
  poll: true,
  reset: true,
} satisfies Record<LiveEventType, true>);

/**
 * Opens the live stream (GET /api/stream, Server-Sent Events) and hands each event to `onEvent`.
 * The browser's EventSource reconnects by itself and sends the last event id, so the server resumes
 * where the stream broke off. Answers how to close it. No React here: state/live.tsx decides what
 * each event changes.
 */
export function connectLive(onEvent: (event: LiveEvent) => void): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  const source = new EventSource(api.stream);
  const listener = (message: MessageEvent<string>) => {
    try {
      onEvent(JSON.parse(message.data) as LiveEvent);
    } catch {
      // A frame that is not ours (a proxy's): ignored.
    }
  };
  for (const type of TYPES) source.addEventListener(type, listener);
  return () => source.close();
}
