import { Fragment, type ReactNode } from 'react';

/**
 * A translated sentence with marked parts (`<0>…</0>`, `<1>…</1>`): each marked part is drawn by its
 * function (a link, bold), the rest as text, so a translation can put the parts where its grammar wants
 * them. `rich(t('Signed in as <0>{name}</0>.', { name }), [(name) => <strong>{name}</strong>])`.
 */
export function rich(
  text: string,
  parts: readonly ((children: string) => ReactNode)[],
  plain: (text: string) => ReactNode = (s) => s,
): ReactNode {
  const out: ReactNode[] = [];
  const tag = /<(\d+)>([\s\S]*?)<\/\1>/g;
  let last = 0;
  for (let match = tag.exec(text); match; match = tag.exec(text)) {
    if (match.index > last) out.push(plain(text.slice(last, match.index)));
    const draw = parts[Number(match[1])];
    out.push(draw ? draw(match[2] ?? '') : match[2]);
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push(plain(text.slice(last)));
  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one sentence, in its order, never reordered
  return out.map((node, i) => <Fragment key={i}>{node}</Fragment>);
}

/** "<0>12</0> Followers": the count bold, the words muted (a profile's and a post's counts). */
export const countWords = (text: string): ReactNode =>
  rich(text, [(count) => <strong>{count}</strong>], (words) => <span className="text-muted">{words}</span>);
