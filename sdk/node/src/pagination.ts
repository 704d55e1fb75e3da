/** A page of a list answer of the API (`{ data, pagination, total }`). */
export interface ListPage<T> {
  data: T[];
  pagination: { current_page: number; current_pages: number; next_page: number | null; per_page: number; total_pages: number };
  total: number;
}

/** Items of a paged list, however its pages follow each other: `pages()` walks whole pages. */
export abstract class PagedItems<T, Page extends { data: T[] }> implements AsyncIterable<T> {
  abstract pages(): AsyncGenerator<Page>;

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every item in an array (mind the size of the list). */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}

/**
 * Every item of a list, page after page, following `pagination.next_page`:
 * `for await (const user of sesame.users.list('acme')) ...`. `pages()` walks whole pages.
 */
export class PageIterator<T> extends PagedItems<T, ListPage<T>> {
  constructor(
    private readonly fetchPage: (page: number) => Promise<ListPage<T>>,
    private readonly firstPage = 1,
  ) {
    super();
  }

  async *pages(): AsyncGenerator<ListPage<T>> {
    let page: number | null = this.firstPage;
    while (page !== null) {
      const answer: ListPage<T> = await this.fetchPage(page);
      yield answer;
      page = answer.pagination.next_page;
    }
  }
}

/** A page of a cursor list of the API (`{ data, list_metadata: { after, has_more } }`). */
export interface CursorPage<T> {
  data: T[];
  list_metadata: { after: string; has_more: boolean };
}

/**
 * Every item of a cursor list, page after page, following `list_metadata.after` while `has_more`:
 * `for await (const event of sesame.events.list({ events: ['user.*'] })) ...`. `pages()` walks
 * whole pages; keep the last page's `list_metadata.after` to resume later (`query.after`).
 */
export class CursorIterator<T> extends PagedItems<T, CursorPage<T>> {
  constructor(
    private readonly fetchPage: (after: string | undefined) => Promise<CursorPage<T>>,
    private readonly from?: string,
  ) {
    super();
  }

  async *pages(): AsyncGenerator<CursorPage<T>> {
    let after = this.from;
    for (;;) {
      const page: CursorPage<T> = await this.fetchPage(after);
      yield page;
      if (!page.list_metadata.has_more) return;
      after = page.list_metadata.after;
    }
  }
}
