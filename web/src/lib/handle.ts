/**
 * How a person is named: `@username` for a member of this server, `@username@domain` for someone
 * elsewhere in the fediverse (the contract's `domain`; a summary without it is a member's).
 */
export function handleOf(person: { username: string; domain?: string | null }): string {
  return person.domain ? `@${person.username}@${person.domain}` : `@${person.username}`;
}
