import { describe, expect, it } from 'vitest';
import { formatCount, fullDate, joinedDate, relativeTime } from './format-time.ts';

describe('relative times', () => {
  const now = new Date('2026-11-21T12:00:00Z').getTime();
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it('counts seconds, minutes and hours, then shows the day', () => {
    expect(relativeTime(ago(12_000), now)).toBe('12s');
    expect(relativeTime(ago(5 * 60_000), now)).toBe('5m');
    expect(relativeTime(ago(3 * 3_600_000), now)).toBe('3h');
    expect(relativeTime('2026-11-03T12:00:00Z', now)).toBe('Nov 3');
    expect(relativeTime('2024-11-03T12:00:00Z', now)).toBe('Nov 3, 2024');
  });

  it('never shows a time in the future', () => {
    expect(relativeTime(ago(-5000), now)).toBe('0s');
  });

  it('never shows a negative count', () => {
    expect(formatCount(-1)).toBe('0');
    expect(formatCount(1234)).toBe('1.2K');
  });
});

describe('the same text as Intl (en-US, the local time zone)', () => {
  const intl = {
    monthDay: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' }),
    monthDayYear: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }),
    clock: new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }),
    monthYear: new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' }),
    compact: new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }),
  };

  it('for dates and times over several years, every hour and minute of the day', () => {
    const now = new Date('2026-11-21T12:00:00Z').getTime();
    // Every 7 h 13 min from 2023 on: every month, day, hour and most minutes.
    for (let t = Date.UTC(2023, 0, 1); t < Date.UTC(2027, 0, 1); t += 433 * 60_000) {
      const date = new Date(t);
      const iso = date.toISOString();
      const sameYear = date.getFullYear() === new Date(now).getFullYear();
      if (now - t >= 86_400_000) {
        expect(relativeTime(iso, now)).toBe((sameYear ? intl.monthDay : intl.monthDayYear).format(date));
      }
      expect(fullDate(iso)).toBe(`${intl.clock.format(date)} · ${intl.monthDayYear.format(date)}`);
      expect(joinedDate(iso)).toBe(intl.monthYear.format(date));
    }
  });

  it('for counts, rounding and units included', () => {
    const values = new Set<number>();
    for (let n = 0; n <= 12_000; n++) values.add(n);
    for (const unit of [1e3, 1e6, 1e9, 1e12]) {
      for (const tenths of [9999, 10_000, 10_049, 10_050, 11_499, 11_500, 11_550, 99_949, 99_950, 999_949, 999_950]) {
        values.add((tenths * unit) / 1e4);
        values.add((tenths * unit) / 1e4 - 1);
      }
    }
    let seed = 1;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 48_271) % 2_147_483_647;
      values.add(Math.floor((seed / 2_147_483_647) * 10 ** (1 + (i % 13))));
    }
    for (const n of values) expect(formatCount(n), String(n)).toBe(intl.compact.format(n));
  });

  it('throws on an invalid time, as Intl does', () => {
    expect(() => fullDate('not a date')).toThrow(RangeError);
  });
});
