/**
 * The Mastodon streaming API pings every connection each STREAM_HEARTBEAT_MS (1 s here): a client
 * that answers (every WebSocket client does, with a pong) keeps its connection; one that does not is
 * closed at the next round, so dead connections do not hold their place in the live hub.
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { testConfig, useTestApp } from '../helpers/app.ts';
import { seedWorld } from '../security/support.ts';

describe('Mastodon streaming heartbeat', () => {
  const ctx = useTestApp({ stream: { ...testConfig().stream, heartbeatMs: 1_000 } });

  async function open(token: string, autoPong: boolean) {
    if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/streaming?stream=public`, [token], { autoPong });
    const pings: number[] = [];
    socket.on('ping', () => pings.push(pings.length + 1));
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    /** Resolves once `n` pings have arrived (or rejects if the connection closes first). */
    const pinged = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pings.length >= n) {
            socket.off('ping', check);
            resolve();
          }
        };
        socket.on('ping', check);
        check();
        void closed.then(() => reject(new Error(`closed after ${pings.length} pings`)));
      });
    return { socket, pings, closed, pinged };
  }

  it('keeps a client that answers the pings, and closes one that does not', async () => {
    const w = await seedWorld(ctx);
    const [answering, silent] = [await open(w.oauth.aliceToken, true), await open(w.oauth.aliceToken, false)];
    // The silent one is pinged once, then closed at the round after (1006: no close frame, terminated).
    expect(await silent.closed).toBe(1006);
    expect(silent.pings.length).toBe(1);
    // The answering one was pinged again after each answer, and is still open.
    await answering.pinged(3);
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
    answering.socket.close();
    await answering.closed;
  });
});
