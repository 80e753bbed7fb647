import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { invalid } from './errors.ts';

/**
 * Keyset pagination on (time, id). The time is kept as PostgreSQL's own text of the timestamp, in
 * UTC with microseconds: a JS Date has only milliseconds, and two posts a few microseconds apart
 * would otherwise share a key and a page boundary could skip or repeat one of them.
 */
export interface Cursor {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`, exactly as `cursorTime` renders it. */
  t: string;
  id: number;
}

const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{6})Z$/;
const ID = /^[1-9]\d{0,15}$/;

/** A column's timestamp as the microsecond UTC text cursors carry. */
export const cursorTime = (column: SQLWrapper) =>
  sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The opaque string clients pass back: base64url of `<time>_<id>`. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.t}_${cursor.id}`, 'utf8').toString('base64url');
}

/** Reads a client's cursor; anything this server did not produce is a 400 on the field `cursor`. */
export function decodeCursor(raw: string | undefined): Cursor | null {
  if (raw === undefined || raw === '') return null;
  const bad = () => invalid('cursor', 'cursor: is not a cursor this server produced');
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw bad();
  const [t, id, ...rest] = Buffer.from(raw, 'base64url').toString('utf8').split('_');
  if (t === undefined || id === undefined || rest.length > 0 || !ID.test(id)) throw bad();
  const m = TIME.exec(t);
  if (!m) throw bad();
  // A real calendar instant (no 30 February), so PostgreSQL never sees an invalid timestamp.
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[];
  const date = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  if (
    year! < 1970 ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month! - 1 ||
    date.getUTCDate() !== day ||
    date.getUTCHours() !== hour ||
    date.getUTCMinutes() !== minute ||
    date.getUTCSeconds() !== second
  ) {
    throw bad();
  }
  const n = Number(id);
  if (!Number.isSafeInteger(n)) throw bad();
  return { t, id: n };
}

/** Rows strictly after the cursor in the page order (newest first: older rows; oldest first: newer rows). */
export function afterCursor(
  time: SQLWrapper,
  id: SQLWrapper,
  cursor: Cursor | null,
  order: 'newest' | 'oldest',
): SQL | undefined {
  if (!cursor) return undefined;
  // A row-value comparison, which a btree on (…, time, id) answers as one index range.
  return order === 'newest'
    ? sql`(${time}, ${id}) < (${cursor.t}::timestamptz, ${cursor.id}::bigint)`
    : sql`(${time}, ${id}) > (${cursor.t}::timestamptz, ${cursor.id}::bigint)`;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A page the client asks for: after `cursor` (from the previous page), `limit` items. */
export interface PageRequest {
  cursor?: string | undefined;
  limit: number;
}

/** A row that can key a page: the microsecond time PostgreSQL rendered, and the id. */
export interface KeyedRow {
  cursorTime: string;
  id: number;
}

/** Reads `limit + 1` rows after the cursor. */
export type PageFetch<R> = (cursor: Cursor | null, limit: number) => Promise<R[]>;

/**
 * The one recipe for a list page. `fetch` reads `limit + 1` rows after the cursor (the extra row only
 * says whether another page exists); the next cursor is the key of the last row shown. `whenEmpty`
 * runs only for an empty page, to tell "nothing there" from "no such owner" (a 404).
 */
export async function listPage<R extends KeyedRow, T>(
  page: PageRequest,
  fetch: PageFetch<R>,
  pack: (row: NoInfer<R>) => T,
  whenEmpty?: () => Promise<void>,
): Promise<Page<T>> {
  const rows = await fetch(decodeCursor(page.cursor), page.limit);
  if (rows.length === 0 && whenEmpty) await whenEmpty();
  return packPage(page.limit, rows, pack);
}

/** The page of `limit` items that `limit + 1` rows read after a cursor make. */
export function packPage<R extends KeyedRow, T>(limit: number, rows: R[], pack: (row: R) => T): Page<T> {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    items: shown.map(pack),
    nextCursor: rows.length > limit && last ? encodeCursor({ t: last.cursorTime, id: last.id }) : null,
  };
}
