/**
 * While translating: `node scripts/i18n.ts` lists the texts still outside `t` by file; `node scripts/i18n.ts
 * missing <locale>` prints the ids a catalog lacks as JSON to fill in; `node scripts/i18n.ts prune` drops
 * the messages no source names any more. src/i18n/untranslated.test.ts holds the same checks.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { catalogs, LOCALES_DIR, messageIds, sourceFiles, untranslatedIn } from '../src/i18n/check.ts';

const [command, locale] = process.argv.slice(2);
if (command === 'missing') {
  const ids = messageIds();
  const messages = catalogs().get(locale ?? '') ?? {};
  const missing = Object.fromEntries([...ids.keys()].filter((id) => !messages[id]).map((id) => [id, '']));
  console.log(JSON.stringify(missing, null, 2));
} else if (command === 'prune') {
  const ids = messageIds();
  for (const [name, messages] of catalogs()) {
    const kept = Object.fromEntries(Object.entries(messages).filter(([id]) => ids.has(id)));
    writeFileSync(path.join(LOCALES_DIR, `${name}.json`), `${JSON.stringify(kept, null, 2)}\n`);
  }
} else {
  const counts = new Map<string, number>();
  for (const file of sourceFiles()) {
    const found = untranslatedIn(file);
    if (found.length) counts.set(path.relative(process.cwd(), file), found.length);
    if (command === 'list') for (const f of found) console.log(`${f.file}:${f.line} ${f.text}`);
  }
  if (command !== 'list') for (const [file, count] of counts) console.log(`${count}\t${file}`);
}
