import { paginate, resolvePage } from './pagination.schema';

describe('pagination', () => {
  it('resolves page, current_page and per_page with defaults', () => {
    expect(resolvePage({})).toEqual({ page: 1, perPage: 10, skip: 0 });
    expect(resolvePage({ current_page: 3, per_page: 2 })).toEqual({ page: 3, perPage: 2, skip: 4 });
    expect(resolvePage({ page: 2, current_page: 5 })).toEqual({ page: 2, perPage: 10, skip: 10 });
  });

  it('describes the neighbours of a page', () => {
    expect(paginate(['c', 'd'], 5, resolvePage({ page: 2, per_page: 2 }))).toEqual({
      data: ['c', 'd'],
      pagination: { current_page: 2, current_pages: 2, next_page: 3, prev_page: 1, per_page: 2, total_pages: 3 },
      total: 5,
    });
    expect(paginate([], 0, resolvePage({})).pagination).toEqual({
      current_page: 1,
      current_pages: 1,
      next_page: null,
      prev_page: null,
      per_page: 10,
      total_pages: 1,
    });
    expect(paginate([], 5, resolvePage({ page: 9, per_page: 2 })).pagination).toMatchObject({ next_page: null, prev_page: 3 });
  });
});
