/** A page of a list answer of the API (`{ data, pagination, total }`). */
export interface ListPage<T> {
  data: T[];
  pagination: { current_page: number; current_pages: number; next_page: number | null; per_page: number; total_pages: number };
  total: number;
}

/**
 * Every item of a list, page after page, following `pagination.next_page`:
 * `for await (const user of sesame.users.list('acme')) ...`. `pages()` walks whole pages.
 */
export class PageIterator<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: (page: number) => Promise<ListPage<T>>,
    private readonly firstPage = 1,
  ) {}

  async *pages(): AsyncGenerator<ListPage<T>> {
    let page: number | null = this.firstPage;
    while (page !== null) {
      const answer: ListPage<T> = await this.fetchPage(page);
      yield answer;
      page = answer.pagination.next_page;
    }
  }

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
