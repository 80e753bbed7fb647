import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogs, messageIds, placeholders, SRC, sourceFiles, untranslatedIn } from './check.ts';
import { LOCALES } from './i18n.ts';

/**
 * Files whose texts are not through `t` yet. It only shrinks: a file that has none left must leave it.
 */
const NOT_YET_TRANSLATED = new Set<string>([]);

describe('every text a person reads is translated', () => {
  const files = sourceFiles();

  it('reads the source', () => {
    expect(files.length).toBeGreaterThan(100);
    // The check finds what it is for (a test that can fail).
    expect(untranslatedIn(path.join(SRC, 'i18n/fixtures/untranslated.tsx')).map((f) => f.text)).toEqual([
      'Posts',
      'Saved it.',
      'Hello there',
      'A title',
      'Say something',
      'Follow',
      'Unfollow',
      'Could not save. Try again.',
    ]);
  });

  it('leaves no JSX text, user-facing prop or prose outside t()', () => {
    const findings = files
      .filter((file) => !NOT_YET_TRANSLATED.has(path.relative(SRC, file)))
      .flatMap(untranslatedIn)
      .map((f) => `${f.file}:${f.line} ${f.text}`);
    expect(findings).toEqual([]);
  });

  it('lists as not yet translated only files that still have texts outside t()', () => {
    const done = [...NOT_YET_TRANSLATED].filter((file) => untranslatedIn(path.join(SRC, file)).length === 0);
    expect(done).toEqual([]);
  });

  const ids = messageIds(files);
  const all = catalogs();

  it('has a catalog for every language but English, and no other', () => {
    expect([...all.keys()].sort()).toEqual(
      Object.keys(LOCALES)
        .filter((locale) => locale !== 'en')
        .sort(),
    );
  });

  for (const [locale, messages] of all) {
    it(`${locale}: has a translation of every message, and nothing else`, () => {
      const missing = [...ids.keys()].filter((id) => !messages[id]?.trim());
      expect(missing).toEqual([]);
      const unused = Object.keys(messages).filter((id) => !ids.has(id));
      expect(unused).toEqual([]);
    });

    it(`${locale}: every translation parses and keeps the English placeholders`, () => {
      const wrong = Object.entries(messages).flatMap(([id, text]) => {
        try {
          return placeholders(text).join() === placeholders(id).join() ? [] : [`${id} → ${text}`];
        } catch (error) {
          return [`${id} → ${text}: ${(error as Error).message}`];
        }
      });
      expect(wrong).toEqual([]);
    });
  }
});
