// npm run bench:federation [-- --rate 300] [--seconds 20] [--senders 20] [--concurrency 256] [--pg postgres://…]
//   [--cpu-prof <dir>]
//
// The federation's inbox under load (issue 29, item 5): an in-repo load generator (the Fedify CLI downloads a
// binary and cannot be used here). It starts the compiled server (npm start's Node flags) with federation on as
// https://pipit.bench (FEDERATION_ALLOW_LOOPBACK: development mode, the only one that lets federation fetch from
// this machine), serves `--senders` actors of its own on 127.0.0.1 (each with an RSA key, as Mastodon's), warms
// the server's key cache with one delivery each, then sends signed `Create(Note)` activities to the shared inbox
// at `--rate` per second for `--seconds` (open loop: each is sent at its time, at most `--concurrency` in flight),
// every request signed before the timed phase so the generator's CPU goes to sending. Reported: the rate
// achieved, how many were accepted (202), latency p50/p95/p99, and the server's CPU. Goal: ≥ 300/s, p95 < 100 ms,
// ≥ 99 % accepted. The notes are dropped after the queue reads them (nobody here follows the senders): what is
// measured is what a server does before it answers — the signature checked, the activity queued.
//
// Only 127.0.0.1; every loop is bounded in count and time. Results: bench/results/federation-<time>.{json,md}.

import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generateCryptoKeyPair, signRequest } from '@fedify/fedify';
import { Create, CryptographicKey, Endpoints, Note, Person, PUBLIC_COLLECTION } from '@fedify/vocab';
import { parseArgs, RESULTS_DIR } from './lib/options.ts';
import { processCpuMs, startServer } from './lib/server.ts';

const args = parseArgs(process.argv.slice(2));
const rate = Number(args.get('rate') ?? 300);
const seconds = Number(args.get('seconds') ?? 20);
const senders = Number(args.get('senders') ?? 20);
const concurrency = Number(args.get('concurrency') ?? 256);
const databaseUrl = args.get('pg') ?? null;
/** A directory for the server's V8 CPU profile of the run (`npx tsx bench/profile.ts <file>` summarises it). */
const cpuProfDir = args.get('cpu-prof') ?? undefined;
const PUBLIC = 'https://pipit.bench';
const REQUEST_TIMEOUT_MS = 10_000;
if (!(rate > 0 && rate <= 5_000 && seconds > 0 && seconds <= 300 && senders > 0 && senders <= 1_000)) {
  throw new Error('--rate 1–5000, --seconds 1–300, --senders 1–1000');
}

interface Signed {
  headers: Record<string, string>;
  body: string;
}

/** The senders' server: each actor's document by path (what the server under test fetches for their keys). */
async function startSenders() {
  const documents = new Map<string, string>();
  const server = createServer((req, res) => {
    const doc = req.method === 'GET' ? documents.get(new URL(req.url ?? '/', 'http://x').pathname) : undefined;
    if (doc) res.writeHead(200, { 'content-type': 'application/activity+json' }).end(doc);
    else res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const actors = [];
  for (let i = 0; i < senders; i++) {
    const keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    const id = new URL(`/users/s${i}`, origin);
    const keyId = new URL(`/users/s${i}#main-key`, origin);
    const person = new Person({
      id,
      preferredUsername: `s${i}`,
      inbox: new URL(`/users/s${i}/inbox`, origin),
      endpoints: new Endpoints({ sharedInbox: new URL('/inbox', origin) }),
      publicKey: new CryptographicKey({ id: keyId, owner: id, publicKey: keys.publicKey }),
    });
    documents.set(id.pathname, JSON.stringify(await person.toJsonLd()));
    actors.push({ id, keyId, keys, origin });
  }
  return { server, actors };
}

/** A signed Create(Note) to the shared inbox, as its sender's server would send it. */
async function signedCreate(
  actor: Awaited<ReturnType<typeof startSenders>>['actors'][number],
  n: number,
): Promise<Signed> {
  const note = new Note({
    id: new URL(`/notes/${n}`, actor.origin),
    attribution: actor.id,
    content: `<p>Load note ${n}</p>`,
    to: PUBLIC_COLLECTION,
  });
  const body = JSON.stringify(
    await new Create({ id: new URL(`/activities/${n}`, actor.origin), actor: actor.id, object: note }).toJsonLd(),
  );
  const signed = await signRequest(
    new Request(`${PUBLIC}/inbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json', accept: 'application/activity+json' },
      body,
    }),
    actor.keys.privateKey,
    actor.keyId,
  );
  const headers: Record<string, string> = {};
  signed.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers.host = new URL(PUBLIC).host;
  return { headers, body };
}

/** Sends one delivery to the server on 127.0.0.1 (its Host the public name); answers its status and time. */
function send(port: number, delivery: Signed): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/inbox',
        headers: delivery.headers,
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(delivery.body);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pipit-bench-fed-'));
  const { server: sendersServer, actors } = await startSenders();
  const app = await startServer({
    databaseUrl,
    dataDir,
    authSecret: 'bench-secret-that-is-long-enough-0123456789',
    cpuProfDir,
    env: {
      NODE_ENV: 'development',
      PUBLIC_URL: PUBLIC,
      FEDERATION_ALLOW_LOOPBACK: 'true',
      LOG_LEVEL: 'error',
    },
  });
  const port = Number(new URL(app.url).port);
  try {
    // Warm-up: one delivery per sender, so each key is fetched once and kept (as between real servers).
    for (const [i, actor] of actors.entries()) {
      const warm = await send(port, await signedCreate(actor, 1_000_000 + i));
      if (warm.status !== 202) throw new Error(`warm-up delivery answered ${warm.status}`);
    }
    const total = Math.round(rate * seconds);
    console.log(`signing ${total} deliveries…`);
    const deliveries: Signed[] = [];
    for (let n = 0; n < total; n++)
      deliveries.push(await signedCreate(actors[n % actors.length] as (typeof actors)[number], n));

    console.log(`sending ${total} at ${rate}/s for ${seconds} s (at most ${concurrency} in flight)…`);
    const cpuBefore = processCpuMs(app.pid);
    const results: Array<{ status: number; ms: number }> = [];
    let inFlight = 0;
    let skipped = 0;
    const pending: Promise<void>[] = [];
    const start = performance.now();
    for (let n = 0; n < total; n++) {
      const due = start + (n * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      if (inFlight >= concurrency) {
        skipped++; // the server is this far behind: counted as not accepted
        continue;
      }
      inFlight++;
      pending.push(
        send(port, deliveries[n] as Signed).then((r) => {
          inFlight--;
          results.push(r);
        }),
      );
    }
    await Promise.all(pending);
    const elapsedS = (performance.now() - start) / 1000;
    const cpuMs = processCpuMs(app.pid) - cpuBefore;
    const accepted = results.filter((r) => r.status === 202).length;
    const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
    const statuses: Record<string, number> = {};
    for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const summary = {
      at: new Date().toISOString(),
      database: databaseUrl ? 'postgresql' : 'embedded',
      targetRate: rate,
      seconds,
      senders,
      sent: results.length,
      skipped,
      achievedRate: Math.round(results.length / elapsedS),
      acceptedRate: Math.round(accepted / elapsedS),
      acceptedShare: accepted / total,
      p50Ms: Math.round(percentile(latencies, 50) * 10) / 10,
      p95Ms: Math.round(percentile(latencies, 95) * 10) / 10,
      p99Ms: Math.round(percentile(latencies, 99) * 10) / 10,
      statuses,
      serverCpuMsPerDelivery: Math.round((cpuMs / Math.max(1, results.length)) * 100) / 100,
      goal: { rate: 300, p95Ms: 100, acceptedShare: 0.99 },
    };
    const met = summary.acceptedRate >= 300 && summary.p95Ms < 100 && summary.acceptedShare >= 0.99;
    console.log(JSON.stringify({ ...summary, met }, null, 2));
    mkdirSync(RESULTS_DIR, { recursive: true });
    const stamp = summary.at.replace(/[:.]/g, '-');
    writeFileSync(
      path.join(RESULTS_DIR, `federation-${stamp}.json`),
      `${JSON.stringify({ ...summary, met }, null, 2)}\n`,
    );
    writeFileSync(
      path.join(RESULTS_DIR, `federation-${stamp}.md`),
      `| target/s | achieved/s | accepted/s | accepted | p50 ms | p95 ms | p99 ms | server CPU ms/delivery | met |\n|---|---|---|---|---|---|---|---|---|\n| ${rate} | ${summary.achievedRate} | ${summary.acceptedRate} | ${(summary.acceptedShare * 100).toFixed(1)} % | ${summary.p50Ms} | ${summary.p95Ms} | ${summary.p99Ms} | ${summary.serverCpuMsPerDelivery} | ${met ? 'yes' : 'no'} |\n`,
    );
  } finally {
    await app.stop();
    sendersServer.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
