import { describe, expect, it } from 'vitest';
import {
  allowedQuotePolicy,
  initialVisibility,
  quotePolicyOptions,
  quoteRefusal,
  repostRefusal,
  visibilityOptions,
} from './visibility.ts';

const offered = (parent?: Parameters<typeof visibilityOptions>[0]) =>
  visibilityOptions(parent)
    .filter((option) => option.refused === null)
    .map((option) => option.value);

describe('the composer’s visibility rules', () => {
  it('starts at the member’s default, or at a reply’s parent when that is narrower', () => {
    expect(initialVisibility('public')).toBe('public');
    expect(initialVisibility('followers')).toBe('followers');
    expect(initialVisibility('public', 'followers')).toBe('followers');
    expect(initialVisibility('unlisted', 'direct')).toBe('direct');
    // A parent wider than the default does not widen it.
    expect(initialVisibility('followers', 'public')).toBe('followers');
    expect(initialVisibility('direct', 'unlisted')).toBe('direct');
  });

  it('offers a reply nothing wider than its parent, and says why', () => {
    expect(offered()).toEqual(['public', 'unlisted', 'followers', 'direct']);
    expect(offered('public')).toEqual(['public', 'unlisted', 'followers', 'direct']);
    expect(offered('unlisted')).toEqual(['unlisted', 'followers', 'direct']);
    expect(offered('followers')).toEqual(['followers', 'direct']);
    expect(offered('direct')).toEqual(['direct']);
    expect(visibilityOptions('followers')[0]?.refused).toBe(
      'A reply can’t be seen by more people than the post it answers (followers only)',
    );
  });

  it('caps who may quote as the server does: followers-only at most followers, direct nobody', () => {
    const allowed = (v: Parameters<typeof quotePolicyOptions>[0]) =>
      quotePolicyOptions(v)
        .filter((o) => o.refused === null)
        .map((o) => o.value);
    expect(allowed('public')).toEqual(['anyone', 'followers', 'nobody']);
    expect(allowed('unlisted')).toEqual(['anyone', 'followers', 'nobody']);
    expect(allowed('followers')).toEqual(['followers', 'nobody']);
    expect(allowed('direct')).toEqual(['nobody']);
    expect(allowedQuotePolicy('anyone', 'followers')).toBe('followers');
    expect(allowedQuotePolicy('anyone', 'direct')).toBe('nobody');
    expect(allowedQuotePolicy('nobody', 'public')).toBe('nobody');
    expect(allowedQuotePolicy('followers', 'unlisted')).toBe('followers');
  });

  it('refuses reposts of followers-only and direct posts, and quotes the author allows nobody (but the author)', () => {
    expect(repostRefusal('public')).toBeNull();
    expect(repostRefusal('unlisted')).toBeNull();
    expect(repostRefusal('followers')).toBe('Followers-only posts can’t be reposted');
    expect(repostRefusal('direct')).toBe('Posts for mentioned people only can’t be reposted');
    const post = (quotePolicy: 'anyone' | 'followers' | 'nobody') => ({ quotePolicy, author: { id: '2' } });
    expect(quoteRefusal(post('nobody'), '1')).toBe('The author doesn’t allow quotes of this post');
    expect(quoteRefusal(post('nobody'), undefined)).not.toBeNull();
    expect(quoteRefusal(post('nobody'), '2')).toBeNull();
    // The server decides whether the viewer follows.
    expect(quoteRefusal(post('followers'), '1')).toBeNull();
    expect(quoteRefusal(post('anyone'), '1')).toBeNull();
  });
});
