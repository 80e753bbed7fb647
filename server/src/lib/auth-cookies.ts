import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';

/** Cookie names of the NextAuth v4 protocol; https switches to the prefixed names. */
export function cookieNames(config: Pick<Config, 'secureCookies'>) {
  const secure = config.secureCookies;
  return {
    session: secure ? '__Secure-next-auth.session-token' : 'next-auth.session-token',
    csrf: secure ? '__Host-next-auth.csrf-token' : 'next-auth.csrf-token',
    callbackUrl: secure ? '__Secure-next-auth.callback-url' : 'next-auth.callback-url',
  } as const;
}

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The CSRF cookie holds `token|sha256(token + secret)`; returns the token when the hash checks out. */
export function verifyCsrfCookie(cookieValue: string | undefined, secret: string): string | null {
  if (!cookieValue) return null;
  const [token, hash] = cookieValue.split('|');
  if (!token || !hash || !/^[0-9a-f]{64}$/.test(token)) return null;
  return safeEqual(hash, sha256Hex(`${token}${secret}`)) ? token : null;
}

export function newCsrfCookie(secret: string): { token: string; value: string } {
  const token = randomBytes(32).toString('hex');
  return { token, value: `${token}|${sha256Hex(`${token}${secret}`)}` };
}

/** Base cookie attributes: Path=/, HttpOnly, SameSite=Lax, Secure on https, no Domain. */
export function baseCookieOptions(config: Pick<Config, 'secureCookies'>) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: config.secureCookies };
}
