import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { sha256Hex } from '../../lib/auth-cookies.ts';

/**
 * The pure pieces of two-factor sign-in: the TOTP parameters every authenticator app reads (RFC 6238
 * defaults: SHA-1, 6 digits, 30 s), the secret's encryption at rest, and recovery codes.
 */

export const TOTP_PERIOD_S = 30;
const DIGITS = 6;
/** Codes of the step before and after the server's are accepted too (clocks drift; people type slowly). */
const WINDOW = 1;

/** A new secret: 160 bits (RFC 4226's recommended length), base32. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

const totpOf = (secret: string, label = 'Pipit', issuer = 'Pipit') =>
  new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secret),
  });

/** The otpauth:// URI an app scans (the QR code holds it). */
export const totpUri = (secret: string, label: string, issuer: string) => totpOf(secret, label, issuer).toString();

/** "123 456" → "123456"; anything else than 6 digits after that is not an app's code. */
export function appCode(code: string): string | null {
  const digits = code.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}

/**
 * The 30-second step a code belongs to when it is one of the secret's codes within the window around
 * `now`, else null. The caller refuses a step at or before the last one used (replay).
 */
export function totpStep(secret: string, code: string, now: number): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
}

/**
 * The secret is kept encrypted (AES-256-GCM) with a key derived from AUTH_SECRET by HKDF-SHA256 (one per
 * purpose: the TOTP secret, a Mastodon app's token kept for its push payloads); the
 * member's id is the additional data, so a ciphertext copied to another member's row does not open.
 * Stored as `v1.iv.tag.ciphertext` (base64url).
 */
const keyOf = (authSecret: string, purpose: string) =>
  Buffer.from(hkdfSync('sha256', authSecret, '', `pipit ${purpose} v1`, 32));

/** What a secret kept this way is for: each has its own key (HKDF's info), so one never opens as another. */
export type SecretPurpose = 'two-factor secret' | 'push access token';

export function encryptSecret(
  secret: string,
  userId: number,
  authSecret: string,
  purpose: SecretPurpose = 'two-factor secret',
): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(authSecret, purpose), iv);
  cipher.setAAD(Buffer.from(`user:${userId}`));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The secret, or null when it does not open (another AUTH_SECRET, another member's row, damage). */
export function decryptSecret(
  stored: string,
  userId: number,
  authSecret: string,
  purpose: SecretPurpose = 'two-factor secret',
): string | null {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(authSecret, purpose), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`user:${userId}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * A recovery code: 16 base32 characters (80 random bits) shown as `xxxx-xxxx-xxxx-xxxx`. With 80 bits
 * nobody finds one by trying, even offline from a copy of the database, so a plain SHA-256 is enough
 * to keep (docs/security.md), and a typed code is found by its hash in one indexed lookup.
 */
export function newRecoveryCode(): string {
  const bytes = randomBytes(16);
  const chars = [...bytes].map((b) => BASE32[b & 31]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** A typed recovery code as stored: lower-case, no spaces or dashes; null when it cannot be one. */
export function normalizeRecoveryCode(code: string): string | null {
  const plain = code.replace(/[\s-]/g, '').toLowerCase();
  return /^[a-z2-7]{16}$/.test(plain) ? plain : null;
}

export const hashRecoveryCode = (normalized: string) => sha256Hex(normalized);
