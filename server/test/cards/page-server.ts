/**
 * A local HTTP server on 127.0.0.1 that serves test pages, counting every TCP connection and request,
 * so a test can assert that nothing reached it (an SSRF refusal), or that a URL was fetched once.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface PageServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** TCP connections accepted so far. */
  connections: number;
  /** Requests per path (with its query). */
  requests: Map<string, number>;
  /** Serves `path` with `handler` (replacing any before). */
  route(path: string, handler: Handler): void;
  hits(path: string): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  const routes = new Map<string, Handler>();
  const state = { connections: 0, requests: new Map<string, number>() };
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    state.requests.set(path, (state.requests.get(path) ?? 0) + 1);
    const handler = routes.get(path);
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    handler(req, res);
  });
  server.on('connection', (socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return state.connections;
    },
    requests: state.requests,
    route: (path, handler) => routes.set(path, handler),
    hits: (path) => state.requests.get(path) ?? 0,
    reset() {
      state.connections = 0;
      state.requests.clear();
      routes.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An HTML page with these head tags. */
export const html =
  (head: string, status = 200, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(`<!doctype html><html><head>${head}</head><body><p>Hello</p></body></html>`);
  };

/** A redirect to `location`. */
export const redirect =
  (location: string, status = 302): Handler =>
  (_req, res) => {
    res.writeHead(status, { location }).end();
  };
