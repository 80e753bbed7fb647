import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { onePage, pagedQuery, pageItems } from './paged.ts';

type Item = { id: string };
const page = (ids: string[], nextCursor: string | null) => ({ items: ids.map((id) => ({ id })), nextCursor });

describe('pagedQuery', () => {
  it('asks for the first page without a cursor, then with each answer’s nextCursor until it is null (no third call)', async () => {
    const asked: Array<string | undefined> = [];
    const answers = [page(['3', '2'], 'c1'), page(['1'], null)];
    const options = pagedQuery<Item>(['things'], async (cursor) => {
      asked.push(cursor);
      return answers[asked.length - 1]!;
    });
    const queryClient = new QueryClient();

    const data = await queryClient.fetchInfiniteQuery({ ...options, pages: 3 });

    expect(asked).toEqual([undefined, 'c1']);
    expect(pageItems(data).map((item) => item.id)).toEqual(['3', '2', '1']);
    expect(options.getNextPageParam(answers[1]!, [], null, [])).toBeNull();
  });
});

describe('pageItems', () => {
  it('lists every loaded item in order, each once', () => {
    const data = { pages: [page(['3', '2'], 'c'), page(['2', '1'], null)], pageParams: [null, 'c'] };
    expect(pageItems(data).map((item) => item.id)).toEqual(['3', '2', '1']);
    expect(pageItems(undefined)).toEqual([]);
  });

  it('reads a whole list kept as one page', () => {
    expect(pageItems(onePage([{ id: 'a' }, { id: 'b' }])).map((item) => item.id)).toEqual(['a', 'b']);
  });
});
