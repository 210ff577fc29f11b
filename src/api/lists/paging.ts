/**
 * The HSDS Page around every list (the HSDS API reference's Page): `first_page` only on page 1, `last_page`
 * on the last page and on any page past it (a client looping `until last_page` stops), `empty` when
 * `contents` is empty, `size` equal to the number of items in `contents`, every page but the last
 * full. An empty result has zero pages; its page 1 is both first and last.
 */
export type PageEnvelope<T> = {
  total_items: number;
  total_pages: number;
  page_number: number;
  size: number;
  first_page: boolean;
  last_page: boolean;
  empty: boolean;
  contents: T[];
};

/** Extension fields a list adds to its page when asked (`facets`, `did_you_mean`), before `contents`. */
export type PageExtensions = Record<string, unknown>;

export function toPage<T>(
  contents: T[],
  totalItems: number,
  page: number,
  perPage: number,
  extensions: PageExtensions = {},
): PageEnvelope<T> {
  const totalPages = Math.ceil(totalItems / perPage);
  return {
    total_items: totalItems,
    total_pages: totalPages,
    page_number: page,
    size: contents.length,
    first_page: page === 1,
    last_page: page >= totalPages,
    empty: contents.length === 0,
    ...extensions,
    contents,
  };
}

/** The same page as JSON text, around items that are JSON texts already (records as stored). */
export function pageText(
  items: string[],
  totalItems: number,
  page: number,
  perPage: number,
  extensions: PageExtensions = {},
): string {
  const { contents: _, ...envelope } = toPage(items, totalItems, page, perPage, extensions);
  return `${JSON.stringify(envelope).slice(0, -1)},"contents":[${items.join(',')}]}`;
}
