import { describe, expect, it } from 'vitest';
import { pageText, toPage } from '../../../../src/api/lists/paging.ts';

describe('toPage', () => {
  it('marks the first, middle and last pages', () => {
    expect(toPage([1, 2], 5, 1, 2)).toEqual({
      total_items: 5,
      total_pages: 3,
      page_number: 1,
      size: 2,
      first_page: true,
      last_page: false,
      empty: false,
      contents: [1, 2],
    });
    expect(toPage([3, 4], 5, 2, 2)).toMatchObject({ first_page: false, last_page: false });
    expect(toPage([5], 5, 3, 2)).toMatchObject({ first_page: false, last_page: true, size: 1 });
  });

  it('answers a page past the end as an empty last page', () => {
    expect(toPage([], 5, 9, 2)).toMatchObject({
      total_pages: 3,
      size: 0,
      empty: true,
      first_page: false,
      last_page: true,
    });
  });

  it('answers an empty result with zero pages, its page 1 first and last', () => {
    expect(toPage([], 0, 1, 50)).toMatchObject({
      total_pages: 0,
      first_page: true,
      last_page: true,
      empty: true,
    });
  });
});

describe('pageText', () => {
  it('is the same page, written around items that are JSON already', () => {
    const items = [{ id: 'a', name: 'x"y' }, { id: 'b' }];
    const text = pageText(
      items.map((i) => JSON.stringify(i)),
      7,
      2,
      2,
    );
    expect(JSON.parse(text)).toEqual(toPage(items, 7, 2, 2));
    expect(JSON.parse(pageText([], 0, 1, 50))).toEqual(toPage([], 0, 1, 50));
  });
});
