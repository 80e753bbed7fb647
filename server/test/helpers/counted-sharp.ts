/**
 * The real sharp, counted: how many image pipelines ran (`toBuffer`/`toFile`: each decodes its
 * input). Reading a header (`metadata()`) is not a run. A test that must prove "refused before any
 * pixel was decoded" mocks sharp with this module and compares `sharpRuns.count` around a request:
 * a count, where a timing would fail on a busy machine and pass a slow decode on a fast one.
 *
 *   vi.mock('sharp', () => import('../helpers/counted-sharp.ts'));
 */
import type { Sharp } from 'sharp';
import { vi } from 'vitest';

const real = (await vi.importActual<typeof import('sharp')>('sharp')).default;

export const sharpRuns = { count: 0 };

function counted(image: Sharp): Sharp {
  for (const method of ['toBuffer', 'toFile'] as const) {
    const run = image[method].bind(image) as (...args: unknown[]) => unknown;
    (image as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      sharpRuns.count++;
      return run(...args);
    };
  }
  return image;
}

const countedSharp = new Proxy(real, {
  apply: (target, self, args) => counted(Reflect.apply(target, self, args) as Sharp),
  construct: (target, args) => counted(Reflect.construct(target, args) as Sharp),
});

export default countedSharp;
