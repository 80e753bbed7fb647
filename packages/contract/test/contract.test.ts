import { describe, expect, it } from 'vitest';
import {
  AUTHORIZATION_QUERY_FIELDS,
  authorizationQuery,
  createPostBody,
  EMAIL_PATTERN,
  editBody,
  fitsGraphemes,
  graphemeLength,
  idSchema,
  pageQuery,
  registerBody,
} from '../src/index.ts';

describe('graphemeLength', () => {
  it('counts an emoji, a flag and a family once each', () => {
    expect(graphemeLength('👍')).toBe(1);
    expect(graphemeLength('🇫🇷')).toBe(1);
    expect(graphemeLength('👨‍👩‍👧‍👦')).toBe(1);
    expect(graphemeLength('é')).toBe(1); // e + combining acute
    expect(graphemeLength('abc')).toBe(3);
  });
});

describe('fitsGraphemes', () => {
  it('counts as graphemeLength does, on either side of the limit', () => {
    expect(fitsGraphemes('abc', 3)).toBe(true);
    expect(fitsGraphemes('abcd', 3)).toBe(false);
    // Longer in UTF-16 units than the limit, within it in characters: segmented.
    expect(fitsGraphemes('🇫🇷🇫🇷', 2)).toBe(true);
    expect(fitsGraphemes('🇫🇷🇫🇷🇫🇷', 2)).toBe(false);
    expect(fitsGraphemes('e\u0301'.repeat(3), 3)).toBe(true);
  });
});

describe('post text', () => {
  it('accepts 280 characters and refuses 281', () => {
    expect(createPostBody.safeParse({ text: 'a'.repeat(280) }).success).toBe(true);
    expect(createPostBody.safeParse({ text: 'a'.repeat(281) }).success).toBe(false);
  });
  it('accepts 280 emoji and refuses 281', () => {
    expect(createPostBody.safeParse({ text: '🇫🇷'.repeat(280) }).success).toBe(true);
    expect(createPostBody.safeParse({ text: '🇫🇷'.repeat(281) }).success).toBe(false);
  });
  it('trims, refuses blank text and control characters, allows newlines', () => {
    expect(createPostBody.parse({ text: '  hi  ' }).text).toBe('hi');
    expect(createPostBody.safeParse({ text: '   ' }).success).toBe(false);
    expect(createPostBody.safeParse({ text: 'a\u0000b' }).success).toBe(false);
    expect(createPostBody.safeParse({ text: 'a\u202Eb' }).success).toBe(false);
    expect(createPostBody.safeParse({ text: 'line one\nline two' }).success).toBe(true);
  });
  it('refuses unknown fields', () => {
    expect(createPostBody.safeParse({ text: 'hi', authorId: '1' }).success).toBe(false);
  });
});

describe('email pattern (the seed rule)', () => {
  it.each(['a@b.co', 'first.last+tag@example.org', 'x_y%z-1@sub.domain.io'])('accepts %s', (email) => {
    expect(EMAIL_PATTERN.test(email)).toBe(true);
  });
  it.each(['plain', 'a@b', 'a@b.c', 'a b@c.de', '@c.de', 'a@.de1'])('refuses %s', (email) => {
    expect(EMAIL_PATTERN.test(email)).toBe(false);
  });
});

describe('register and edit bodies', () => {
  const valid = { email: 'alice@example.com', password: 'long enough pw', username: 'alice_1', name: 'Alice' };
  it('accepts a valid registration', () => {
    expect(registerBody.safeParse(valid).success).toBe(true);
  });
  it('refuses mass-assigned fields', () => {
    expect(registerBody.safeParse({ ...valid, isAdmin: true }).success).toBe(false);
    expect(editBody.safeParse({ passwordHash: 'x' }).success).toBe(false);
  });
  it('refuses reserved and malformed usernames', () => {
    expect(registerBody.safeParse({ ...valid, username: 'Admin' }).success).toBe(false);
    expect(registerBody.safeParse({ ...valid, username: 'a-b' }).success).toBe(false);
    expect(registerBody.safeParse({ ...valid, username: 'a'.repeat(31) }).success).toBe(false);
  });
});

describe('ids and pages', () => {
  it('ids are positive decimal strings', () => {
    expect(idSchema.safeParse('42').success).toBe(true);
    expect(idSchema.safeParse('0').success).toBe(false);
    expect(idSchema.safeParse('1e3').success).toBe(false);
    expect(idSchema.safeParse('9'.repeat(19)).success).toBe(false);
  });
  it('page size defaults to 20 and caps at 50', () => {
    expect(pageQuery.parse({}).limit).toBe(20);
    expect(pageQuery.safeParse({ limit: '51' }).success).toBe(false);
  });
});

describe("the consent page's query", () => {
  it("the plain list of fields is the schema's", () => {
    expect([...AUTHORIZATION_QUERY_FIELDS].sort()).toEqual(Object.keys(authorizationQuery.shape).sort());
  });
});
