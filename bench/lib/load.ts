// Load generation: autocannon against 127.0.0.1 only, a fixed number of connections for a fixed time.
import autocannon from 'autocannon';

export interface LoadStat {
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  requests: number;
  /** Socket errors + timeouts + non-2xx answers. */
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** CPU per request (ms): the server process, the PostgreSQL backends (null for PGlite), the load generator. */
  cpu?: { serverMs: number; dbMs: number | null; clientMs: number };
}

export interface LoadOptions {
  connections: number;
  durationS: number;
  warmupS: number;
}

/** Requests one connection sends, in a loop; `client` numbers the connections from 0. */
export type RequestsFor = (client: number) => autocannon.Request[];

function assertLocal(url: string) {
  const host = new URL(url).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost')
    throw new Error(`Load is only ever aimed at 127.0.0.1, not ${host}`);
}

async function fire(url: string, requestsFor: RequestsFor, connections: number, durationS: number) {
  assertLocal(url);
  let next = 0;
  const first = requestsFor(0);
  return autocannon({
    url,
    connections,
    duration: durationS,
    pipelining: 1,
    timeout: 10,
    requests: first,
    // Each connection gets its own request list (its own member, its own posts to like).
    setupClient: (client) => {
      client.setRequests(requestsFor(next++));
      keepNoBodies(client);
    },
  });
}

/**
 * autocannon keeps every answer's body as a string (`req.body += chunk` in the pinned 9.0.0's
 * PipelinedRequestsQueue.addBody), which the bench never reads (no expectBody, verifyBody or
 * onResponse). Decoding them made the load generator — on the same two cores as the server — the
 * bottleneck for bigger and compressed answers: 63 µs of its CPU per compressed Mastodon home answer against 26
 * without (measured with time(1); wrk agreed with the server's own numbers). Bytes are still counted.
 */
function keepNoBodies(client: autocannon.Client) {
  const queue = (client as unknown as { pipelinedRequests?: { addBody?: (data: Buffer) => void } }).pipelinedRequests;
  if (typeof queue?.addBody !== 'function')
    throw new Error('autocannon changed: PipelinedRequestsQueue.addBody is gone');
  queue.addBody = () => {};
}

/** Called around the measured run (after the warm-up), e.g. to read CPU counters. */
export interface Probe {
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

export async function runLoad(
  url: string,
  requestsFor: RequestsFor,
  options: LoadOptions,
  probe?: Probe,
): Promise<LoadStat> {
  if (options.warmupS > 0) await fire(url, requestsFor, options.connections, options.warmupS);
  await probe?.start();
  const result = await fire(url, requestsFor, options.connections, options.durationS);
  await probe?.stop();
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = (stat as { count: number }).count;
  }
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
    non2xx: result.non2xx,
    statusCodes,
  };
}

/** Latency percentiles of a list of samples (ms). */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;
}
