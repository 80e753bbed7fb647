import type { List } from '@pipit/contract';

/** Mastodon's List entity. */
export interface MastodonList {
  id: string;
  title: string;
  replies_policy: List['repliesPolicy'];
  exclusive: boolean;
}

export const toMastodonList = (list: List): MastodonList => ({
  id: list.id,
  title: list.title,
  replies_policy: list.repliesPolicy,
  exclusive: list.exclusive,
});
