import { Parser } from 'htmlparser2';

/** Elements that end a line of text. */
const BLOCKS = new Set(['p', 'div', 'blockquote', 'li', 'ul', 'ol', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tr']);
/** Elements whose content is never text a person wrote. */
const DROPPED = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'object',
  'svg',
  'math',
  'head',
  'title',
]);

/**
 * Remote HTML (a note's content, a bio) as Pipit keeps text: Pipit stores and shows plain text (the
 * web app finds links, mentions and hashtags in it; the Mastodon API escapes it), so the allow-list of
 * what survives is the text itself — paragraphs and breaks as new lines, a link as its address unless
 * it is a mention or hashtag (or shows its own address), everything else (tags, attributes, scripts,
 * styles, comments) dropped. Parsed with htmlparser2 (the parser the link cards use), so a malformed or
 * hostile document cannot smuggle markup through: nothing of it is ever HTML again.
 */
export function remoteHtmlToText(
  html: string,
  maxChars = 100_000,
  options: {
    /**
     * Leave out the quoted post's fallback link (an element of class `quote-inline`, "RE: …"): for a note whose
     * quote Pipit shows as a quote.
     */
    dropQuoteInline?: boolean;
  } = {},
): string {
  let out = '';
  let dropped = 0;
  // Whether each open element was dropped for its class (its close tag ends it).
  const open: boolean[] = [];
  const links: Array<{ href: string | null; start: number; classes: string; hidden: boolean }> = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (DROPPED.has(name)) dropped++;
        const byClass = options.dropQuoteInline === true && /(^|\s)quote-inline(\s|$)/.test(attributes.class ?? '');
        open.push(byClass);
        if (byClass) dropped++;
        if (name === 'br') out += '\n';
        else if (BLOCKS.has(name) && out !== '' && !out.endsWith('\n\n')) out += out.endsWith('\n') ? '\n' : '\n\n';
        if (name === 'a') {
          const href = attributes.href ?? null;
          links.push({
            href: href && /^https?:\/\//i.test(href) ? href : null,
            start: out.length,
            classes: attributes.class ?? '',
            // Inside what is dropped: its address is dropped with it.
            hidden: dropped > 0,
          });
        }
      },
      ontext(text) {
        if (dropped === 0) out += decodeSpaces(text);
      },
      onclosetag(name) {
        if (DROPPED.has(name)) dropped = Math.max(0, dropped - 1);
        if (open.pop()) dropped = Math.max(0, dropped - 1);
        if (name === 'a') {
          const link = links.pop();
          if (!link?.href || link.hidden) return;
          const shown = out.slice(link.start);
          const isTag = /\b(mention|hashtag)\b/.test(link.classes) || /^[@#]/.test(shown.trim());
          // A link that shows other words than its address: the address follows them, so the text keeps it.
          // (Mastodon splits a long address into spans, some hidden: their text together is the address.)
          if (!isTag && !sameLink(shown, link.href))
            out = `${out.slice(0, link.start)}${shown}${shown.trim() ? ' ' : ''}${link.href}`;
          else if (!isTag) out = `${out.slice(0, link.start)}${link.href}`;
        }
        if (BLOCKS.has(name) && !out.endsWith('\n')) out += '\n';
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html.slice(0, maxChars * 4));
  parser.end();
  return out
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .slice(0, maxChars);
}

function decodeSpaces(text: string): string {
  return text.replace(/\u00a0/g, ' ').replace(/[\r\n\t]+/g, ' ');
}

/** Whether a link's shown text is its address (less the scheme, or cut short with an ellipsis). */
function sameLink(shown: string, href: string): boolean {
  const bare = (s: string) =>
    s
      .trim()
      .replace(/^https?:\/\//i, '')
      .replace(/…$/, '');
  const text = bare(shown);
  return text !== '' && bare(href).startsWith(text);
}
