import { afterEach, describe, expect, it } from 'vitest';
import { formatCount, fullDate, relativeTime } from '../lib/format-time.ts';
import { activateLocale, chooseLocale, currentLocale, LOCALE_KEY, t } from './i18n.ts';
import { serverMessage } from './server-messages.ts';

describe('languages', () => {
  afterEach(async () => {
    await activateLocale('en');
    localStorage.clear();
  });

  it('English is the English text itself, plurals through ICU', () => {
    expect(currentLocale()).toBe('en');
    expect(t('Sign in')).toBe('Sign in');
    expect(t('{count, plural, one {# reply} other {# replies}}', { count: 1 })).toBe('1 reply');
    expect(t('{count, plural, one {# reply} other {# replies}}', { count: 3 })).toBe('3 replies');
  });

  it('Spanish: loads its catalog, translates, and writes <html lang dir>', async () => {
    await activateLocale('es');
    expect(t('Sign in')).toBe('Iniciar sesión');
    expect(t('{count, plural, one {# reply} other {# replies}}', { count: 2 })).toBe('2 respuestas');
    expect(document.documentElement.lang).toBe('es');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('Arabic is right to left, with its plural forms', async () => {
    await chooseLocale('ar');
    expect(localStorage.getItem(LOCALE_KEY)).toBe('ar');
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    const replies = (count: number) => t('{count, plural, one {# reply} other {# replies}}', { count });
    expect(replies(1)).toBe('رد واحد');
    expect(replies(2)).toBe('ردّان');
    expect(replies(5)).toMatch(/ردود$/);
    expect(replies(11)).toMatch(/ردًا$/);
  });

  it("shows the server's message in the reader's language: as it is when catalogued, else the code's sentence", async () => {
    expect(serverMessage('NOT_FOUND', 'No such app.')).toBe('No such app.');
    expect(serverMessage('NOT_FOUND', 'Something we never catalogued.')).toBe('Something we never catalogued.');
    await activateLocale('es');
    expect(serverMessage('NOT_FOUND', 'No such app.')).toBe('No existe esa aplicación.');
    expect(serverMessage('NOT_FOUND', 'Something we never catalogued.')).toBe('Ya no está ahí.');
    expect(serverMessage('SOME_NEW_CODE', 'Something we never catalogued.')).toBe('Something we never catalogued.');
  });

  it('dates and counts follow the language (Intl), English keeps its own', async () => {
    const now = Date.parse('2026-06-15T12:00:00Z');
    const fiveMinutesAgo = new Date(now - 5 * 60_000).toISOString();
    expect(relativeTime(fiveMinutesAgo, now)).toBe('5m');
    expect(formatCount(1234)).toBe('1.2K');
    await activateLocale('es');
    expect(relativeTime(fiveMinutesAgo, now)).toBe(
      new Intl.NumberFormat('es', { style: 'unit', unit: 'minute', unitDisplay: 'narrow' }).format(5),
    );
    expect(formatCount(1234)).toBe(
      new Intl.NumberFormat('es', { notation: 'compact', maximumFractionDigits: 1 }).format(1234),
    );
    expect(fullDate('2026-03-01T10:00:00Z')).toContain('2026');
  });
});
