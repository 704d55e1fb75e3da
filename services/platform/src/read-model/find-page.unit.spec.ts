import { findPage } from './find-page';
import { MemoryReadModelStore } from './memory.read-model';

interface Item {
  _id: string;
  group: string;
  rank: number;
}

describe('findPage', () => {
  const store = new MemoryReadModelStore();
  const items = store.collection<Item>('items');

  beforeAll(async () => {
    for (const rank of [3, 1, 5, 2, 4]) await items.upsert({ _id: `a${rank}`, group: 'a', rank });
    await items.upsert({ _id: 'b1', group: 'b', rank: 0 });
  });

  it('answers the page asked in sort order, presented, with the count of all the filter selects', async () => {
    const page = await findPage(
      items,
      { filter: { group: 'a' }, sort: { rank: 1 }, query: { page: 2, per_page: 2 } },
      (item) => item._id,
    );
    expect(page).toEqual({
      data: ['a3', 'a4'],
      total: 5,
      pagination: {
        current_page: 2,
        current_pages: 2,
        next_page: 3,
        prev_page: 1,
        per_page: 2,
        total_pages: 3,
      },
    });
  });

  it('answers the first page of the default size when the query names none', async () => {
    const page = await findPage(items, { filter: {}, sort: { rank: -1 }, query: {} }, (item) => item.rank);
    expect(page.data).toEqual([5, 4, 3, 2, 1, 0]);
    expect(page.pagination).toMatchObject({ current_page: 1, per_page: 10, next_page: null, prev_page: null });
  });

  it('presents each document alone (a presenter with an optional second parameter gets no array index)', async () => {
    const present = (item: Item, label: string | null = null) => label ?? item._id;
    const page = await findPage(items, { filter: { group: 'b' }, sort: { rank: 1 }, query: {} }, present);
    expect(page.data).toEqual(['b1']);
  });

  it('answers an empty page past the last one, with the total still counted', async () => {
    const page = await findPage(items, { filter: { group: 'b' }, sort: { rank: 1 }, query: { page: 3 } }, (item) => item);
    expect(page).toMatchObject({ data: [], total: 1, pagination: { current_page: 3, next_page: null, prev_page: 1 } });
  });
});
