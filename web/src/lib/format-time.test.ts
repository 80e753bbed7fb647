import { describe, expect, it } from 'vitest';
import { formatCount, relativeTime } from './format-time.ts';

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
