import type { PreviewCard } from '@pipit/contract';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LinkCard } from './link-card.tsx';

const card = (over: Partial<PreviewCard> = {}): PreviewCard => ({
  url: 'https://www.birding.example/swifts',
  title: 'Swifts & swallows',
  description: 'How to tell them apart in flight.',
  siteName: 'Birding Weekly',
  authorName: '',
  image: { url: '/media/abc.jpg', width: 640, height: 336, blurhash: null },
  ...over,
});

describe('LinkCard', () => {
  it('is one link to the page, opened apart (no opener, no referrer, no follow), with its site, title and description', () => {
    render(<LinkCard card={card()} />);
    const link = screen.getByRole('link');
    expect(link).toHaveAttribute('href', 'https://www.birding.example/swifts');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(link).toHaveTextContent('Birding Weekly');
    expect(link).toHaveTextContent('Swifts & swallows');
    expect(link).toHaveTextContent('How to tell them apart in flight.');
    // The picture is decoration: the title says what it is.
    const picture = link.querySelector('img');
    expect(picture).toHaveAttribute('src', '/media/abc.jpg');
    expect(picture).toHaveAttribute('alt', '');
  });

  it('names the host when the page gives no site name, and goes without a picture it has not', () => {
    render(<LinkCard card={card({ siteName: '', image: null, description: '' })} />);
    const link = screen.getByRole('link');
    expect(link).toHaveTextContent('birding.example');
    expect(link.querySelector('img')).toBeNull();
  });

  it('shows nothing for a post without a card', () => {
    const { container } = render(<LinkCard card={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});
