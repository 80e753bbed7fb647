import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PostText, tokenize } from './post-text.tsx';

const renderText = (text: string) =>
  render(
    <MemoryRouter>
      <PostText text={text} />
    </MemoryRouter>,
  );

describe('post text', () => {
  it('finds URLs, hashtags and mentions, and leaves e-mail addresses and trailing punctuation alone', () => {
    expect(tokenize('Hi @bob, see https://example.com/a?b=1. #pipit! mail bob@example.com')).toEqual([
      { type: 'text', value: 'Hi ' },
      { type: 'mention', value: '@bob', username: 'bob' },
      { type: 'text', value: ', see ' },
      { type: 'url', value: 'https://example.com/a?b=1' },
      { type: 'text', value: '. ' },
      { type: 'hashtag', value: '#pipit', tag: 'pipit' },
      { type: 'text', value: '! mail bob@example.com' },
    ]);
  });

  it('does not take a number or a word-inner # for a hashtag, nor a look-alike for a mention', () => {
    expect(tokenize('issue#12 #1 @\u0430lice').every((t) => t.type === 'text')).toBe(true);
  });

  it("links hashtags by the contract's rule: combining marks stay in the tag, over 100 characters is text", () => {
    const tags = (text: string) => tokenize(text).flatMap((t) => (t.type === 'hashtag' ? [t.tag] : []));
    expect(tags('#Cafe\u0301 au lait, #２０２６年')).toEqual(['Cafe\u0301', '２０２６年']);
    expect(tags(`#${'a'.repeat(100)}`)).toEqual(['a'.repeat(100)]);
    expect(tags(`#${'a'.repeat(101)}`)).toEqual([]);
  });

  it('links with real links and shows the URL exactly as written', () => {
    renderText('Read https://example.com/a/very/long/path/that/goes/on and #birds with @bob');
    expect(screen.getByRole('link', { name: 'https://example.com/a/very/long/path/that/goes/on' })).toHaveAttribute(
      'href',
      'https://example.com/a/very/long/path/that/goes/on',
    );
    expect(screen.getByRole('link', { name: '#birds' })).toHaveAttribute('href', '/hashtag/birds');
    expect(screen.getByRole('link', { name: '@bob' })).toHaveAttribute('href', '/users/@bob');
  });

  it('renders markup and script as text, never as elements or javascript: links', () => {
    const hostile =
      '<img src=x onerror=alert(1)> <script>alert(1)</script> javascript:alert(1) [x](javascript:alert(1))';
    const { container } = renderText(hostile);
    expect(container).toHaveTextContent(hostile);
    expect(container.querySelector('img, script')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
