// Sessions and CSRF tokens for the benchmark members, made the way the server makes and checks them.
import { CSRF_HEADER } from '@pipit/contract';
import { cookieNames, sha256Hex } from '../../server/src/lib/auth-cookies.ts';

/** The session cookie token of member `index` (deterministic from the seed; only its hash is stored). */
export const memberToken = (seed: number, index: number) => sha256Hex(`pipit-bench:${seed}:session:${index}`);

export const tokenHash = (token: string) => sha256Hex(token);

/** The Mastodon API bearer token of member `index` (an OAuth token of the bench's app; only its hash is stored). */
export const bearerToken = (seed: number, index: number) => sha256Hex(`pipit-bench:${seed}:bearer:${index}`);

/** The one password every generated account has (argon2id, fixed salt so the data set is deterministic). */
export const BENCH_PASSWORD = 'pipit-bench-password';

export async function benchPasswordHash(): Promise<string> {
  const { hash } = await import('@node-rs/argon2');
  return hash(BENCH_PASSWORD, { salt: new TextEncoder().encode('pipit-bench-salt') });
}

const names = cookieNames({ secureCookies: false });

/** Headers of a signed-in member: session cookie, CSRF cookie (`token|sha256(token+secret)`) and header. */
export function memberHeaders(sessionToken: string, authSecret: string, seed: number): Record<string, string> {
  const csrf = sha256Hex(`pipit-bench:${seed}:csrf:${sessionToken}`);
  const csrfCookie = `${csrf}|${sha256Hex(`${csrf}${authSecret}`)}`;
  return {
    cookie: `${names.session}=${sessionToken}; ${names.csrf}=${encodeURIComponent(csrfCookie)}`,
    [CSRF_HEADER]: csrf,
  };
}
