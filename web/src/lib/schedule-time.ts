import { UNSENT_LIMITS } from '@pipit/contract';
import { currentLocale, t } from '../i18n/i18n.ts';

/**
 * Times of scheduled posts in the person's own time zone: what a `datetime-local` field holds
 * ("2026-12-01T09:30", local) and how a time is shown ("Tue, Dec 1, 2026, 9:30 AM (Europe/Paris)").
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** A Date as a datetime-local field's value, in local time. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local field's value as a Date (local time), or null when empty or not a time. */
export function fromLocalInput(value: string): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The soonest a post can be scheduled from now (the server's minimum, plus a minute to send it). */
export const soonestSchedule = (now = Date.now()) => new Date(now + UNSENT_LIMITS.minLeadMs + 60_000);

/** Why this time cannot be chosen, or null. */
export function scheduleProblem(date: Date, now = Date.now()): string | null {
  if (date.getTime() < now + UNSENT_LIMITS.minLeadMs) return t('Choose a time at least 5 minutes from now.');
  if (date.getTime() > now + UNSENT_LIMITS.maxLeadMs) return t('Choose a time within a year.');
  return null;
}

/** "Tue, Dec 1, 2026, 9:30 AM", in the person's language and time zone. */
export function scheduleLabel(iso: string | Date): string {
  return new Intl.DateTimeFormat(currentLocale(), {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** The person's time zone, as the browser names it ("Europe/Paris"). */
export const localTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
