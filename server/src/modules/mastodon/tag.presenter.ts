/**
 * Mastodon's Tag. Pipit keeps no tag rows: a tag's id is its stored (lower-case, NFKC) name, unique as
 * ids are. `following` only for a person's token (Mastodon's serializer leaves it out for visitors).
 */
export function presentTag(publicUrl: string, name: string, following?: boolean) {
  return {
    id: name,
    name,
    url: `${publicUrl}/hashtag/${encodeURIComponent(name)}`,
    history: [],
    ...(following === undefined ? {} : { following }),
  };
}
