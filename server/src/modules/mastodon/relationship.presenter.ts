import type { User } from '@pipit/contract';

/** Mastodon's Relationship of the viewer to a person (their profile as the viewer sees it). */
export function toRelationship(user: User, followedBy: boolean) {
  return {
    id: user.id,
    following: user.isFollowing,
    showing_reblogs: user.isFollowing,
    notifying: false,
    languages: null,
    followed_by: followedBy,
    blocking: user.isBlocking,
    // A block is mutual in what either sees, and never said to the other (docs/product-decisions.md).
    blocked_by: false,
    muting: user.isMuting,
    muting_notifications: user.isMuting,
    requested: false,
    requested_by: false,
    domain_blocking: false,
    endorsed: false,
    note: '',
  };
}
