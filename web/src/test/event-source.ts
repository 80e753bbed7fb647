import type { LiveEvent } from '@pipit/contract';
import { vi } from 'vitest';

/**
 * Stands in for the browser's EventSource (jsdom has none): the test pushes live events as the
 * server's stream would (`push`), and sees what was opened and closed.
 */
export function mockEventSource() {
  const opened: FakeEventSource[] = [];
  class FakeEventSource extends EventTarget {
    closed = false;
    constructor(readonly url: string) {
      super();
      opened.push(this);
    }
    close() {
      this.closed = true;
    }
  }
  vi.stubGlobal('EventSource', FakeEventSource);
  return {
    opened,
    /** Sends `event` on every open stream. */
    push(event: LiveEvent) {
      for (const source of opened.filter((s) => !s.closed)) {
        source.dispatchEvent(new MessageEvent(event.type, { data: JSON.stringify(event) }));
      }
    },
  };
}
