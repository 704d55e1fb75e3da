import { CommitCache } from './commit-cache';

const bytes = (n: number) => new Uint8Array(n);

describe('CommitCache', () => {
  it('forgets the least recently remembered stream beyond its number of streams', () => {
    const cache = new CommitCache(2, 1_000);
    cache.remember('a', { revision: 0, seq: 1 });
    cache.remember('b', { revision: 0, seq: 2 });
    cache.remember('a', { revision: 1, seq: 3 });
    cache.remember('c', { revision: 0, seq: 4 });
    expect([cache.get('a')?.seq, cache.get('b'), cache.get('c')?.seq]).toEqual([3, undefined, 4]);
  });

  it('forgets the oldest streams once the commits kept pass its byte budget', () => {
    const cache = new CommitCache(10, 100);
    cache.remember('a', { revision: 0, seq: 1, commits: [bytes(40)] });
    cache.remember('b', { revision: 1, seq: 2, commits: [bytes(30), bytes(20)] });
    cache.remember('c', { revision: 0, seq: 3, commits: [bytes(40)] });
    expect([cache.get('a'), cache.get('b')?.seq, cache.get('c')?.seq]).toEqual([undefined, 2, 3]);
  });

  it('keeps a stream larger than the whole budget without its commits', () => {
    const cache = new CommitCache(10, 100);
    cache.remember('a', { revision: 0, seq: 1, commits: [bytes(40)] });
    cache.remember('big', { revision: 3, seq: 9, commits: [bytes(80), bytes(80)] });
    expect(cache.get('big')).toEqual({ revision: 3, seq: 9 });
    expect(cache.get('a')?.commits).toHaveLength(1);
  });

  it('counts a stream remembered again once, at its new size', () => {
    const cache = new CommitCache(10, 100);
    cache.remember('a', { revision: 0, seq: 1, commits: [bytes(60)] });
    cache.remember('a', { revision: 1, seq: 2, commits: [bytes(60), bytes(30)] });
    cache.remember('b', { revision: 0, seq: 3, commits: [bytes(10)] });
    expect([cache.get('a')?.seq, cache.get('b')?.seq]).toEqual([2, 3]);
  });
});
