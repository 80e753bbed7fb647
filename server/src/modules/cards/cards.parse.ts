import { Parser } from 'htmlparser2';

/** What a page says about itself, for its card. */
export interface PageMeta {
  title: string;
  description: string;
  siteName: string;
  authorName: string;
  /** The picture's absolute http(s) URL, or null. */
  image: string | null;
}

export const CARD_LIMITS = { title: 200, description: 500, siteName: 100, authorName: 100 } as const;

/**
 * The page's text: in the charset its Content-Type names, else the one its first 1,024 bytes declare
 * (`<meta charset>`, or `http-equiv` Content-Type), else UTF-8. An unknown label reads as UTF-8.
 */
export function decodeHtml(body: Buffer, headerCharset: string | null): string {
  const head = body.subarray(0, 1024).toString('latin1');
  const declared =
    headerCharset ?? /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1]?.toLowerCase() ?? null;
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Spaces collapsed, trimmed, at most `max` characters (a longer one ends in "…"). */
function clean(value: string | undefined, max: number): string {
  const text = (value ?? '').replace(/\s+/g, ' ').trim();
  const chars = [...text];
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** An absolute http(s) URL from what the page wrote (relative to the page), or null. */
function absolute(value: string | undefined, base: string): string | null {
  if (!value?.trim()) return null;
  try {
    const url = new URL(value.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Reads a page's Open Graph and Twitter tags, its `<title>` and its meta description (htmlparser2,
 * entities decoded). The first of each tag counts. Null when it has no title at all: no card then
 * (as Mastodon).
 */
export function parsePage(html: string, pageUrl: string): PageMeta | null {
  const meta = new Map<string, string>();
  let title: string | null = null;
  let inTitle = false;
  let titleText = '';
  let svgDepth = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'svg') svgDepth++;
        if (name === 'title' && title === null && svgDepth === 0) {
          inTitle = true;
          titleText = '';
        }
        if (name === 'meta' && attributes.content !== undefined) {
          // property= (Open Graph) and name= (Twitter, description, author); a property may list several names.
          const keys = `${attributes.property ?? ''} ${attributes.name ?? ''}`.toLowerCase().split(/\s+/);
          for (const key of keys) if (key && !meta.has(key)) meta.set(key, attributes.content);
        }
      },
      ontext(text) {
        if (inTitle) titleText += text;
      },
      onclosetag(name) {
        if (name === 'svg' && svgDepth > 0) svgDepth--;
        if (name === 'title' && inTitle) {
          inTitle = false;
          title = titleText;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  const first = (...keys: string[]) => keys.map((k) => meta.get(k)).find((v) => v !== undefined && v.trim() !== '');
  const cardTitle = clean(first('og:title', 'twitter:title') ?? title ?? undefined, CARD_LIMITS.title);
  if (cardTitle === '') return null;
  return {
    title: cardTitle,
    description: clean(first('og:description', 'twitter:description', 'description'), CARD_LIMITS.description),
    siteName: clean(first('og:site_name', 'application-name'), CARD_LIMITS.siteName),
    authorName: clean(first('author'), CARD_LIMITS.authorName),
    image: absolute(
      first('og:image:secure_url', 'og:image:url', 'og:image', 'twitter:image', 'twitter:image:src'),
      pageUrl,
    ),
  };
}
