import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../test/fetch-mock.ts';
import { renderApp } from '../test/render.tsx';
import { PostMedia } from './post-media.tsx';

const image = (id: string, alt: string, width = 800, height = 600) => ({
  id,
  url: `/media/${id}.jpg`,
  previewUrl: `/media/${id}-small.jpg`,
  width,
  height,
  blurhash: 'LEHV6nWB2yk8pyo0adR*.7kCMdnj',
  alt,
});

describe('PostMedia', () => {
  it('shows the previews with their alt text, ALT on described ones, in a frame sized before loading', async () => {
    mockFetch();
    const { container } = renderApp(<PostMedia media={[image('1', 'A heron'), image('2', '')]} />);
    // The frame is there at once; the grid inside it loads on demand.
    expect((container.firstChild as HTMLElement).style.aspectRatio).toBe(String(16 / 9));
    const heron = await screen.findByRole('img', { name: 'A heron' });
    expect(heron).toHaveAttribute('src', '/media/1-small.jpg');
    expect(screen.getAllByText('ALT')).toHaveLength(1);
    // One tall image keeps its shape, clamped to 3:4.
    const { container: tall } = renderApp(<PostMedia media={[image('3', '', 300, 1200)]} />);
    expect((tall.firstChild as HTMLElement).style.aspectRatio).toBe('0.75');
  });

  it('opens a viewer on click: arrows move, Escape closes and gives focus back', async () => {
    mockFetch();
    renderApp(<PostMedia media={[image('1', 'A heron'), image('2', 'Two ducks')]} />);
    const user = userEvent.setup();
    const opener = await screen.findByRole('button', { name: 'Open image: A heron' });
    await user.click(opener);
    const viewer = await screen.findByRole('dialog', { name: 'Image 1 of 2' });
    expect(within(viewer).getByRole('img', { name: 'A heron' })).toHaveAttribute('src', '/media/1.jpg');
    expect(within(viewer).getByText('A heron', { selector: 'figcaption' })).toBeInTheDocument();
    expect(within(viewer).queryByRole('button', { name: 'Previous image' })).not.toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    expect(await screen.findByRole('dialog', { name: 'Image 2 of 2' })).toBeInTheDocument();
    expect(within(viewer).getByRole('img', { name: 'Two ducks' })).toBeInTheDocument();
    await user.click(within(viewer).getByRole('button', { name: 'Previous image' }));
    expect(await screen.findByRole('dialog', { name: 'Image 1 of 2' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
  });
});
