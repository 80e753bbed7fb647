/**
 * The languages Pipit writes to people in from the server (the web app's are its own catalogs:
 * web/src/i18n): the password-reset mail and push notifications. A person's language is the first of
 * their Accept-Language that Pipit speaks — the web app sends its chosen language as Accept-Language on
 * every call that changes something, a browser or an app its own — else English (docs/decisions.md,
 * "Languages").
 */
export const LANGUAGES = ['en', 'es', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);

/** The first language of an Accept-Language header that Pipit speaks (by preference order), else English. */
export function preferredLanguage(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { language: tag.trim().toLowerCase().split('-')[0] ?? '', q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked.find((entry) => isLanguage(entry.language))?.language as Language | undefined) ?? 'en';
}
