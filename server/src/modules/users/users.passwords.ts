import { readFileSync } from 'node:fs';
import path from 'node:path';
import { hash } from '@node-rs/argon2';

/**
 * common-passwords.txt: every password of 8 to 128 characters (the ones the length rule lets through)
 * from the 49,233 most common passwords, most common first, lower-case. Taken from the MIT-licensed
 * `@zxcvbn-ts/language-common` 4.1.3 (src/passwords.json), so it covers the top 10,000 and more.
 * Read once, on first use; no network.
 */
const LIST_FILE = path.join(import.meta.dirname, 'common-passwords.txt');

let common: Set<string> | null = null;

function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(LIST_FILE, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0),
  );
  return common;
}

/** Compared ignoring case: `Password1` is as guessable as `password1`. */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/** argon2id (the library's default) with its defaults: 19 MiB, 2 passes, 1 lane (OWASP's minimum). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}
