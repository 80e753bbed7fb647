import type { User } from '@pipit/contract';

/**
 * Mastodon's Relationship of the viewer to a person (their profile as the viewer sees it): whether they
 * follow the viewer and whether their request to follow the viewer waits are read beside it.
 */
export function toRelationship(user: User, theirs: { followedBy: boolean; requestedBy: boolean }) {
  return {
    id: user.id,
    following: user.isFollowing,
    showing_reblogs: user.isFollowing,
    notifying: false,
    languages: null,
    followed_by: theirs.followedBy,
    blocking: user.isBlocking,
    // A block is mutual in what either sees, and never said to the other (docs/product-decisions.md).
    blocked_by: false,
    muting: user.isMuting,
    muting_notifications: user.isMuting,
    requested: user.followRequested,
    requested_by: theirs.requestedBy,
    domain_blocking: false,
    endorsed: false,
    note: '',
  };
}
