/**
 * Reading errors from pg and PGlite. Drizzle wraps driver errors (`cause`), so each check walks the
 * cause chain (bounded, and safe against a cause that points at itself).
 */
export interface DriverError {
  code?: string;
  message?: string;
  constraint?: string;
  cause?: unknown;
}

/** The first error in the cause chain that `matches`, or null. */
export function findInCauses(error: unknown, matches: (e: DriverError) => boolean): DriverError | null {
  let e = error as DriverError | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    if (matches(e)) return e;
    if (e.cause === e) break;
    e = e.cause as DriverError | undefined;
  }
  return null;
}

/** Network and server-state failures: the database is not answering. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|PGlite is closed/i;

export const isDatabaseUnavailable = (error: unknown): boolean =>
  findInCauses(
    error,
    (e) =>
      (e.code !== undefined && UNAVAILABLE_CODES.has(e.code)) ||
      (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)),
  ) !== null;

/**
 * PostgreSQL refusing a value the client sent: a NUL character or a byte sequence text cannot hold
 * (22021, 22P05). Input validation should stop these first; this keeps a miss a 400, not a 500.
 */
export const isDatabaseBadInput = (error: unknown): boolean =>
  findInCauses(error, (e) => e.code === '22021' || e.code === '22P05') !== null;

/** A foreign key violation (23503): what a racing delete of the referenced row looks like. */
export const isForeignKeyViolation = (error: unknown): boolean =>
  findInCauses(error, (e) => e.code === '23503') !== null;

/** The unique constraint or index a statement violated (23505), '' when unnamed, or null. */
export function violatedUniqueConstraint(error: unknown): string | null {
  const found = findInCauses(error, (e) => e.code === '23505');
  return found ? (found.constraint ?? '') : null;
}
