import { currentLocale, DEFAULT_LOCALE, type Locale } from '../i18n/i18n.ts';

/**
 * Dates and counts in English, written by hand rather than with Intl: the first Intl.DateTimeFormat a
 * page builds loads ICU's calendar data (~40 ms of a desktop CPU in Chromium, ~160 ms on the throttled
 * phone Lighthouse simulates), and the timeline needs one for its first row, so every first visit paid
 * it in one long task. The output is exactly Intl's for 'en-US' in the local time zone, as before:
 * format-time.test.ts compares them over many dates and numbers.
 *
 * In another language (src/i18n), Intl writes them in that language's way: each formatter is made the
 * first time it is needed, never while the module loads, and kept for the page's life.
 */

const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function intl<F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F {
  let formatter = formatters.get(key) as F | undefined;
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}
const dateFormat = (locale: Locale, name: string, options: Intl.DateTimeFormatOptions) =>
  intl(`${locale}:date:${name}`, () => new Intl.DateTimeFormat(locale, options));
const numberFormat = (locale: Locale, name: string, options: Intl.NumberFormatOptions) =>
  intl(`${locale}:number:${name}`, () => new Intl.NumberFormat(locale, options));
/** "5 min", "3 h" in the language's narrow units (Spanish "5 min", Arabic "٥ د"). */
const unit = (locale: Locale, value: number, name: 'second' | 'minute' | 'hour') =>
  numberFormat(locale, name, { style: 'unit', unit: name, unitDisplay: 'narrow' }).format(value);

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
  const locale = currentLocale();
  if (locale !== DEFAULT_LOCALE) {
    if (seconds < 60) return unit(locale, seconds, 'second');
    if (seconds < 3600) return unit(locale, Math.floor(seconds / 60), 'minute');
    if (seconds < 86_400) return unit(locale, Math.floor(seconds / 3600), 'hour');
    const sameYear = date.getFullYear() === new Date(now).getFullYear();
    return sameYear
      ? dateFormat(locale, 'monthDay', { month: 'short', day: 'numeric' }).format(date)
      : dateFormat(locale, 'monthDayYear', { month: 'short', day: 'numeric', year: 'numeric' }).format(date);
  }
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return date.getFullYear() === new Date(now).getFullYear() ? monthDay(date) : monthDayYear(date);
}

/** "3:04 PM · Nov 3, 2026": the full date shown on hover and on a post's own page. */
export function fullDate(iso: string): string {
  const date = dateOf(iso);
  const locale = currentLocale();
  if (locale !== DEFAULT_LOCALE) {
    return dateFormat(locale, 'full', {
      hour: 'numeric',
      minute: '2-digit',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
    }).format(date);
  }
  return `${clock(date)} · ${monthDayYear(date)}`;
}

/** "November 2026", for "Joined …" (Intl: month 'long', year 'numeric'). */
export function joinedDate(iso: string): string {
  const date = dateOf(iso);
  const locale = currentLocale();
  if (locale !== DEFAULT_LOCALE)
    return dateFormat(locale, 'monthYear', { month: 'long', year: 'numeric' }).format(date);
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
  const locale = currentLocale();
  if (locale !== DEFAULT_LOCALE)
    return numberFormat(locale, 'compact', { notation: 'compact', maximumFractionDigits: 1 }).format(n);
  let unit = 0;
  while (unit < UNITS.length - 1 && n >= 1000 ** (unit + 1)) unit++;
  let tenths = Math.round((n * 10) / 1000 ** unit);
  if (tenths >= 10_000 && unit < UNITS.length - 1) {
    unit++;
    tenths = Math.round((n * 10) / 1000 ** unit);
  }
  return `${tenths / 10}${UNITS[unit]}`;
}
