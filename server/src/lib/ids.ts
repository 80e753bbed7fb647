import { type AppError, postNotFound, userNotFound } from './errors.ts';

declare const idKind: unique symbol;

/**
 * Database ids that say what they name. A route parses the wire's string once (`parsePostId`,
 * `parseUserId`); services and repositories then take these types, so a person's id can never be
 * passed where a post's is wanted.
 */
export type PostId = number & { readonly [idKind]: 'post' };
export type UserId = number & { readonly [idKind]: 'user' };

/**
 * A wire id as a database id. The contract allows up to 18 digits; past 2^53 a JS number would
 * round to another id, so such ids name nothing (the 404 of an unknown one).
 */
export function parseId(wire: string, whenUnknown: () => AppError): number {
  const n = Number(wire);
  if (!Number.isSafeInteger(n) || n <= 0) throw whenUnknown();
  return n;
}

export const parsePostId = (wire: string): PostId => parseId(wire, postNotFound) as PostId;
export const parseUserId = (wire: string): UserId => parseId(wire, userNotFound) as UserId;
