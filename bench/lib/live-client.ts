// One process of bench/live.ts's stream clients (forked: one Node process cannot hold 20,000 sockets
// under this machine's open-file limit, nor parse their frames on one core). It opens the streams it
// is given, counts each post's arrival on each stream against the time the parent says it was sent
// (wall-clock milliseconds: one machine, one clock) and answers a latency histogram at the end.
// Frames are not decoded: only the post's marker is looked for in the raw bytes.
import http from 'node:http';
import WebSocket from 'ws';

export interface OpenMessage {
  type: 'open';
  port: number;
  /** The web's event stream (SSE), or a Mastodon streaming socket subscribed to `public`. */
  kind: 'web' | 'mastodon';
  path: string;
  streams: { headers: Record<string, string> }[];
}
export type ParentMessage = OpenMessage | { type: 'sent'; k: number; at: number } | { type: 'finish' };
export type ChildMessage =
  | { type: 'opened'; opened: number; refused: number }
  | { type: 'result'; received: number; histogram: number[] };

/** Latency histogram: 0.1 ms buckets up to 30 s (the last bucket holds the rest). */
export const BUCKET_MS = 0.1;
export const BUCKETS = 300_000;

/** What precedes a post's number in both formats (the web's `"text":"live-bench 12"`, Mastodon's content). */
const MARKER = Buffer.from('live-bench ');

const send = (message: ChildMessage) => process.send?.(message);
const now = () => performance.timeOrigin + performance.now();

if (process.send) {
  const histogram = new Uint32Array(BUCKETS);
  const sentAt = new Map<number, number>();
  /** Arrivals whose send time has not reached this process yet (the IPC message can trail the event). */
  const early = new Map<number, number[]>();
  const sockets: { destroy(): void }[] = [];
  let received = 0;

  const record = (latencyMs: number) => {
    const bucket = Math.min(BUCKETS - 1, Math.max(0, Math.floor(latencyMs / BUCKET_MS)));
    histogram[bucket] = (histogram[bucket] as number) + 1;
    received++;
  };

  const arrived = (k: number, at: number) => {
    const sent = sentAt.get(k);
    if (sent !== undefined) record(at - sent);
    else {
      const list = early.get(k) ?? [];
      list.push(at);
      early.set(k, list);
    }
  };

  /** The post numbers in a chunk (a marker split across chunks is kept for the next one). */
  const scanner = () => {
    let carry: Buffer | null = null;
    return (chunk: Buffer, at: number) => {
      const data: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
      carry = null;
      let from = 0;
      for (;;) {
        const hit = data.indexOf(MARKER, from);
        if (hit < 0) {
          // Keep a tail that may be the start of a marker.
          carry = data.subarray(Math.max(from, data.length - MARKER.length - 12));
          return;
        }
        let i = hit + MARKER.length;
        let k = 0;
        let digits = 0;
        while (i < data.length && (data[i] as number) >= 48 && (data[i] as number) <= 57) {
          k = k * 10 + ((data[i] as number) - 48);
          i++;
          digits++;
        }
        if (i >= data.length) {
          carry = data.subarray(hit);
          return;
        }
        if (digits > 0) arrived(k, at);
        from = i;
      }
    };
  };

  const open = (message: OpenMessage) => {
    let opened = 0;
    let refused = 0;
    let pending = message.streams.length;
    const done = () => {
      if (--pending === 0) send({ type: 'opened', opened, refused });
    };
    const openSocket = (headers: Record<string, string>) =>
      new Promise<void>((resolve) => {
        const socket = new WebSocket(`ws://127.0.0.1:${message.port}${message.path}`, { headers });
        const scan = scanner();
        let settled = false;
        const settle = (ok: boolean) => {
          if (settled) return;
          settled = true;
          if (ok) opened++;
          else refused++;
          resolve();
          done();
        };
        socket.on('open', () => {
          socket.send(JSON.stringify({ type: 'subscribe', stream: 'public' }));
          settle(true);
        });
        socket.on('message', (data: Buffer) => scan(data, now()));
        socket.on('error', () => settle(false));
        socket.on('close', () => settle(false));
        sockets.push({ destroy: () => socket.terminate() });
      });
    const openOne = (headers: Record<string, string>) =>
      message.kind === 'mastodon'
        ? openSocket(headers)
        : new Promise<void>((resolve) => {
            const req = http.get(
              { host: '127.0.0.1', port: message.port, path: message.path, agent: false, headers },
              (res) => {
                if (res.statusCode !== 200) {
                  refused++;
                  res.resume();
                  resolve();
                  return done();
                }
                const scan = scanner();
                let ready = false;
                res.on('data', (chunk: Buffer) => {
                  if (!ready) {
                    ready = true;
                    opened++;
                    resolve();
                    done();
                  }
                  scan(chunk, now());
                });
                res.on('error', () => {});
              },
            );
            req.on('error', () => {
              refused++;
              resolve();
              done();
            });
            sockets.push(req);
          });
    void (async () => {
      // A hundred at a time: the server's accept queue is not flooded.
      for (let i = 0; i < message.streams.length; i += 100) {
        await Promise.all(message.streams.slice(i, i + 100).map((s) => openOne(s.headers)));
      }
    })();
  };

  process.on('message', (message: ParentMessage) => {
    switch (message.type) {
      case 'open':
        open(message);
        break;
      case 'sent': {
        sentAt.set(message.k, message.at);
        for (const at of early.get(message.k) ?? []) record(at - message.at);
        early.delete(message.k);
        break;
      }
      case 'finish':
        for (const req of sockets) req.destroy();
        // Exits once the answer has left (an exit right after send can lose it).
        process.send?.({ type: 'result', received, histogram: Array.from(histogram) } satisfies ChildMessage, () =>
          process.exit(0),
        );
        break;
    }
  });
}
