import en from 'virtual:pipit-catalog/en';
import { type Messages, setupI18n } from '@lingui/core';

/**
 * Every text of the web app goes through Lingui's runtime (@lingui/core, ~2 kB gzip) with explicit ids:
 * the id of a message is its English text, in ICU MessageFormat (`{count, plural, one {# reply} other
 * {# replies}}`), so components read as they did and English needs no catalog but for the messages with
 * a placeholder. The other languages' catalogs (locales/<locale>.json) load when chosen, as chunks of
 * their own; none is part of an English first visit. src/i18n/untranslated.test.ts fails on a text left
 * outside `t` and on a message a catalog lacks. docs/decisions.md: "Languages".
 */

/** The languages the app speaks, each named in itself (the Settings picker shows these). */
export const LOCALES = { en: 'English', es: 'Español', ar: 'العربية' } as const;
export type Locale = keyof typeof LOCALES;
export const DEFAULT_LOCALE: Locale = 'en';
const RIGHT_TO_LEFT: ReadonlySet<Locale> = new Set(['ar']);
/** Where a choice made in Settings is kept (src/boot.ts reads it before the first paint). */
export const LOCALE_KEY = 'pipit.locale';

const catalogs: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Messages }>> = {
  es: () => import('virtual:pipit-catalog/es'),
  ar: () => import('virtual:pipit-catalog/ar'),
};

/** A message missing from a catalog shows its id, the English text (the test keeps this from happening). */
export const i18n = setupI18n({ locale: DEFAULT_LOCALE, messages: { en }, missing: (_locale, id) => id });

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && Object.hasOwn(LOCALES, value);

/** The text of a message in the current language: `t('Sign in')`, `t('{count, plural, one {# like} other {# likes}}', { count })`. */
export function t(id: string, values?: Record<string, unknown>): string {
  return i18n._(id, values);
}

/**
 * Marks a text kept in a constant to be translated where it is shown (`t(VISIBILITY.public.label)`):
 * the module's constant is made once, before a language is chosen. The check finds the ids it marks.
 */
export const m = <T extends string>(id: T): T => id;

/** Whether the current language has a translation of this exact text (the server's messages). */
export const hasTranslation = (id: string): boolean =>
  i18n.locale === DEFAULT_LOCALE || Object.hasOwn(i18n.messages, id);

export const currentLocale = (): Locale => (isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE);
export const isRightToLeft = (locale: Locale = currentLocale()): boolean => RIGHT_TO_LEFT.has(locale);

/** Loads a language's catalog (once) and makes it the app's, with the page's `lang` and `dir`. */
export async function activateLocale(locale: Locale): Promise<void> {
  if (locale !== 'en' && !loaded.has(locale)) {
    i18n.load(locale, (await catalogs[locale]()).default);
    loaded.add(locale);
  }
  i18n.activate(locale);
  const html = document.documentElement;
  html.lang = locale;
  html.dir = isRightToLeft(locale) ? 'rtl' : 'ltr';
}
const loaded = new Set<Locale>();

/** The language a person chose in Settings, kept in this browser. */
export function chooseLocale(locale: Locale): Promise<void> {
  try {
    localStorage.setItem(LOCALE_KEY, locale);
  } catch {
    // Storage refused (private mode): the choice lasts this page.
  }
  return activateLocale(locale);
}

/**
 * The language of this visit: src/boot.ts chose it before the first paint (the choice made in Settings,
 * else the first of the browser's languages, the ones it sends as Accept-Language, that the app speaks)
 * and wrote it on <html lang>.
 */
export function initialLocale(): Locale {
  const lang = document.documentElement.lang;
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}
