/**
 * OAuth scopes as Mastodon defines them: `read`, `write`, `follow`, `push`, `profile` and their
 * granular forms (`read:statuses`, `write:media`, …). A token's scopes grant what an endpoint needs
 * when they name it, or its top-level scope (`read` grants `read:statuses`), or for blocks, follows
 * and mutes the legacy `follow`.
 */
const GRANULAR = {
  read: [
    'accounts',
    'blocks',
    'bookmarks',
    'favourites',
    'filters',
    'follows',
    'lists',
    'mutes',
    'notifications',
    'search',
    'statuses',
  ],
  write: [
    'accounts',
    'blocks',
    'bookmarks',
    'conversations',
    'favourites',
    'filters',
    'follows',
    'lists',
    'media',
    'mutes',
    'notifications',
    'reports',
    'statuses',
  ],
} as const;

export const KNOWN_SCOPES: ReadonlySet<string> = new Set([
  'read',
  'write',
  'follow',
  'push',
  'profile',
  ...GRANULAR.read.map((s) => `read:${s}`),
  ...GRANULAR.write.map((s) => `write:${s}`),
]);

/** What `follow` stands for (Mastodon's legacy scope). */
const FOLLOW = new Set(['read:blocks', 'write:blocks', 'read:follows', 'write:follows', 'read:mutes', 'write:mutes']);

/** The scopes of a space-separated string, or null when one is unknown. Empty means `read`. */
export function parseScopes(value: string | undefined | null): string[] | null {
  const scopes = [...new Set((value ?? '').split(/[\s+]+/).filter((s) => s.length > 0))];
  if (scopes.length === 0) return ['read'];
  return scopes.every((s) => KNOWN_SCOPES.has(s)) ? scopes : null;
}

/** Whether `have` grants `need` (a granular scope, `push`, or `profile`). */
export function grants(have: readonly string[], need: string): boolean {
  if (have.includes(need)) return true;
  const [top] = need.split(':');
  if (top && have.includes(top)) return true;
  if (FOLLOW.has(need) && have.includes('follow')) return true;
  // `profile` is verify_credentials only; read:accounts (or read) grants it too.
  if (need === 'profile') return have.includes('read') || have.includes('read:accounts');
  return false;
}

/** Whether every scope asked for is within what the app registered (`read` covers `read:x`, …). */
export function within(asked: readonly string[], allowed: readonly string[]): boolean {
  return asked.every((scope) => grants(allowed, scope));
}
