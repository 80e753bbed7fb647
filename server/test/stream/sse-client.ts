import type { LiveEvent } from '@pipit/contract';

export interface Received {
  id: string | null;
  event: string;
  data: LiveEvent;
}

/**
 * A Server-Sent Events reader over fetch, as a browser's EventSource reads the stream: frames are
 * split on blank lines, `id`, `event` and `data` fields kept, comments (heartbeats) skipped.
 */
export async function openStream(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const received: Received[] = [];
  const waiters: { test: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  let ended = false;
  let endWaiters: (() => void)[] = [];

  const reading = (async () => {
    if (!res.ok || !res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let split = buffer.indexOf('\n\n');
        while (split !== -1) {
          const frame = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          split = buffer.indexOf('\n\n');
          const fields = new Map<string, string>();
          for (const line of frame.split('\n')) {
            if (line.startsWith(':') || !line.includes(':')) continue;
            const at = line.indexOf(':');
            fields.set(line.slice(0, at), line.slice(at + 1).trimStart());
          }
          if (!fields.has('data')) continue;
          const message: Received = {
            id: fields.get('id') ?? null,
            event: fields.get('event') ?? 'message',
            data: JSON.parse(fields.get('data') as string) as LiveEvent,
          };
          received.push(message);
          for (const waiter of [...waiters]) {
            if (waiter.test(message)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(message);
            }
          }
        }
      }
    } catch {
      // Aborted by close().
    } finally {
      ended = true;
      for (const resolve of endWaiters) resolve();
      endWaiters = [];
    }
  })();

  return {
    res,
    received,
    /** The next message (already received or to come) that passes `test`. */
    next(test: (r: Received) => boolean = () => true): Promise<Received> {
      const found = received.find(test);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
    /** Resolves when the server ended the stream. */
    ended(): Promise<void> {
      return ended ? Promise.resolve() : new Promise((resolve) => endWaiters.push(resolve));
    },
    async close() {
      controller.abort();
      await reading;
    },
  };
}
