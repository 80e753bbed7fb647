const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const monthDayYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const clock = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const monthYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });

/** "12s", "5m", "3h", then "Nov 3", or "Nov 3, 2024" for another year. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const date = new Date(iso);
  const seconds = Math.max(0, Math.floor((now - date.getTime()) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return date.getFullYear() === new Date(now).getFullYear() ? monthDay.format(date) : monthDayYear.format(date);
}

/** "3:04 PM · Nov 3, 2026": the full date shown on hover and on a post's own page. */
export function fullDate(iso: string): string {
  const date = new Date(iso);
  return `${clock.format(date)} · ${monthDayYear.format(date)}`;
}

/** "November 2026", for "Joined …". */
export function joinedDate(iso: string): string {
  return monthYear.format(new Date(iso));
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** 1234 → "1.2K"; counts are never shown negative. */
export function formatCount(count: number): string {
  return compact.format(Math.max(0, count));
}
