/**
 * Dates and counts in English, written by hand rather than with Intl: the first Intl.DateTimeFormat a
 * page builds loads ICU's calendar data (~40 ms of a desktop CPU in Chromium, ~160 ms on the throttled
 * phone Lighthouse simulates), and the timeline needs one for its first row, so every first visit paid
 * it in one long task. The output is exactly Intl's for 'en-US' in the local time zone, as before:
 * format-time.test.ts compares them over many dates and numbers.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The date of an ISO time; an invalid one throws, as Intl's `format` does. */
function dateOf(iso: string): Date {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid time value');
  return date;
}

/** "Nov 3" (Intl: month 'short', day 'numeric'). */
const monthDay = (date: Date) => `${MONTHS[date.getMonth()]} ${date.getDate()}`;
/** "Nov 3, 2024" (Intl: month 'short', day and year 'numeric'). */
const monthDayYear = (date: Date) => `${monthDay(date)}, ${date.getFullYear()}`;
/** "3:04 PM" (Intl: hour 'numeric', minute '2-digit'). */
function clock(date: Date): string {
  const hours = date.getHours();
  return `${hours % 12 || 12}:${String(date.getMinutes()).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** "12s", "5m", "3h", then "Nov 3", or "Nov 3, 2024" for another year. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const date = dateOf(iso);
  const seconds = Math.max(0, Math.floor((now - date.getTime()) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return date.getFullYear() === new Date(now).getFullYear() ? monthDay(date) : monthDayYear(date);
}

/** "3:04 PM · Nov 3, 2026": the full date shown on hover and on a post's own page. */
export function fullDate(iso: string): string {
  const date = dateOf(iso);
  return `${clock(date)} · ${monthDayYear(date)}`;
}

/** "November 2026", for "Joined …" (Intl: month 'long', year 'numeric'). */
export function joinedDate(iso: string): string {
  const date = dateOf(iso);
  return `${LONG_MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

const UNITS = ['', 'K', 'M', 'B', 'T'];

/**
 * 1234 → "1.2K"; counts are never shown negative. Intl's compact notation with at most one decimal:
 * the unit of the number's thousands, the value rounded half away from zero to tenths (in tenths, so
 * 1150 is 11.5 tenths of a thousand exactly and rounds to "1.2K"), the next unit when rounding reaches
 * 1000 of this one (999,950 → "1M").
 */
export function formatCount(count: number): string {
  const n = Math.max(0, count);
  let unit = 0;
  while (unit < UNITS.length - 1 && n >= 1000 ** (unit + 1)) unit++;
  let tenths = Math.round((n * 10) / 1000 ** unit);
  if (tenths >= 10_000 && unit < UNITS.length - 1) {
    unit++;
    tenths = Math.round((n * 10) / 1000 ** unit);
  }
  return `${tenths / 10}${UNITS[unit]}`;
}
