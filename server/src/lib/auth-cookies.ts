import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';

/** Cookie names of the NextAuth v4 protocol; https switches to the prefixed names. */
export function cookieNames(config: Pick<Config, 'secureCookies'>) {
  const secure = config.secureCookies;
  return {
    session: secure ? '__Secure-next-auth.session-token' : 'next-auth.session-token',
    csrf: secure ? '__Host-next-auth.csrf-token' : 'next-auth.csrf-token',
    callbackUrl: secure ? '__Secure-next-auth.callback-url' : 'next-auth.callback-url',
    /** Pipit's own: a browser an account has signed in from (see newDeviceCookie). */
    device: secure ? '__Host-pipit.device' : 'pipit.device',
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

/** How long a browser stays known to an account after its last successful sign-in. */
export const DEVICE_COOKIE_MAX_AGE_S = 365 * 86_400;

const deviceMac = (email: string, issuedAt: string, secret: string) =>
  createHmac('sha256', secret).update(`device|${email}|${issuedAt}`).digest('base64url');

/**
 * A "known device" cookie for the account with this (normalised) email, set at each successful
 * sign-in: `issuedAt.mac`, the MAC binding it to the email and the server's secret. It reveals
 * nothing (no email, no id) and cannot be made for another account. OWASP's device cookies: the
 * account-wide sign-in limit applies to unknown browsers only, so failed attempts from anywhere
 * else never lock the owner's own browser out.
 */
export function newDeviceCookie(email: string, secret: string, now = Date.now()): string {
  const issuedAt = String(now);
  return `${issuedAt}.${deviceMac(email, issuedAt, secret)}`;
}

/** The device's id (its MAC) when the cookie was issued for this email by this server, else null. */
export function knownDevice(value: string | undefined, email: string, secret: string, now = Date.now()): string | null {
  if (!value) return null;
  const [issuedAt, mac] = value.split('.');
  if (!issuedAt || !mac || !/^\d{1,15}$/.test(issuedAt)) return null;
  if (now - Number(issuedAt) > DEVICE_COOKIE_MAX_AGE_S * 1000) return null;
  return safeEqual(mac, deviceMac(email, issuedAt, secret)) ? mac : null;
}
