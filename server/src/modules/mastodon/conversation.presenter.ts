import type { Conversation } from '@pipit/contract';
import type { Account } from './account.presenter.ts';
import type { Status } from './status.presenter.ts';

/** Mastodon's Conversation: its id, whether it is unread, the other people in it and its last status. */
export function toConversation(c: Conversation, accounts: Account[], lastStatus: Status | null) {
  return { id: c.id, unread: c.unread, accounts, last_status: lastStatus };
}
export type MastodonConversation = ReturnType<typeof toConversation>;
