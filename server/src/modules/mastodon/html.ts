/** Text and URLs as Mastodon's entities carry them: HTML made from plain text, absolute URLs. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** Plain text as Mastodon's HTML: escaped, paragraphs on blank lines, <br> on single ones. */
export function textToHtml(text: string): string {
  if (text.trim() === '') return '';
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** An absolute URL for a stored image (the app stores `/media/…`), or the placeholder. */
export function absolute(publicUrl: string, url: string | null, fallback = '/images/placeholder.png'): string {
  const path = url ?? fallback;
  return path.startsWith('http://') || path.startsWith('https://') ? path : `${publicUrl}${path}`;
}
