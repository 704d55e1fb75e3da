import { DueQueue } from './due-queue';
import type { DueEntry } from './due-queue';

describe('DueQueue (pending webhook jobs by due time)', () => {
  const current = new Map<number, number>();
  const queue = () => new DueQueue((entry) => current.get(entry.id) === entry.revision);
  const entry = (id: number, at: string, lane = 'wh_a', revision = 1): DueEntry => {
    current.set(id, revision);
    return { id, at, lane, revision };
  };
  const ids = (entries: DueEntry[]) => entries.map((taken) => taken.id);
  const always = () => true;
  beforeEach(() => current.clear());

  it('gives the due entries oldest first, ties by id, and keeps the ones not due yet', () => {
    const due = queue();
    due.push(entry(5, '2026-01-01T10:00:02.000Z'));
    due.push(entry(3, ''));
    due.push(entry(9, '2026-01-01T10:00:01.000Z'));
    due.push(entry(1, ''));
    due.push(entry(7, '2026-01-01T11:00:00.000Z'));
    expect(ids(due.take('2026-01-01T10:00:05.000Z', 10, always))).toEqual([1, 3, 9, 5]);
    expect(ids(due.take('2026-01-01T10:00:05.000Z', 10, always))).toEqual([]);
    expect(ids(due.take('2026-01-01T11:00:00.000Z', 10, always))).toEqual([7]);
  });

  it('takes at most the limit and leaves the rest queued in order', () => {
    const due = queue();
    for (let id = 1; id <= 100; id++) due.push(entry(101 - id, ''));
    expect(ids(due.take('2026-01-01T00:00:00.000Z', 3, always))).toEqual([1, 2, 3]);
    expect(ids(due.take('2026-01-01T00:00:00.000Z', 2, always))).toEqual([4, 5]);
    expect(due.size).toBe(95);
  });

  it('drops an entry whose job changed since it was queued, and queues one revision once', () => {
    const due = queue();
    due.push(entry(1, ''));
    due.push(entry(1, ''));
    due.push(entry(2, ''));
    current.set(2, 2);
    due.push({ id: 2, at: '2026-01-01T10:00:00.000Z', lane: 'wh_a', revision: 2 });
    expect(ids(due.take('2026-01-01T09:00:00.000Z', 10, always))).toEqual([1]);
    expect(ids(due.take('2026-01-01T10:00:00.000Z', 10, always))).toEqual([2]);
    expect(due.size).toBe(0);
  });

  it('keeps the jobs of a full lane waiting, in order, and lets one go per freed slot', () => {
    const due = queue();
    for (let id = 1; id <= 6; id++) due.push(entry(id, '', id <= 4 ? 'slow' : 'fast'));
    const running = new Map<string, number>();
    const admit = (lane: string) => {
      const count = running.get(lane) ?? 0;
      if (lane === 'slow' && count >= 2) return false;
      running.set(lane, count + 1);
      return true;
    };
    expect(ids(due.take('', 10, admit))).toEqual([1, 2, 5, 6]);
    expect(ids(due.take('', 10, admit))).toEqual([]);
    running.set('slow', 1);
    due.resume('slow');
    expect(ids(due.take('', 10, admit))).toEqual([3]);
    running.set('slow', 1);
    due.resume('slow');
    expect(ids(due.take('', 10, admit))).toEqual([4]);
    expect(due.size).toBe(0);
  });

  it('skips waiting entries that went stale when a slot frees, so the lane does not stall', () => {
    const due = queue();
    for (let id = 1; id <= 3; id++) due.push(entry(id, '', 'slow'));
    let full = true;
    const admit = () => !full;
    expect(ids(due.take('', 10, admit))).toEqual([]);
    current.set(1, 2);
    full = false;
    due.resume('slow');
    expect(ids(due.take('', 10, admit))).toEqual([2]);
    due.resume('slow');
    expect(ids(due.take('', 10, admit))).toEqual([3]);
  });

  it('passes a freed slot on when the entry it resumed went stale before it was taken (another replica claimed it)', () => {
    const due = queue();
    for (let id = 1; id <= 3; id++) due.push(entry(id, '', 'slow'));
    let full = true;
    const admit = () => !full;
    expect(ids(due.take('', 10, admit))).toEqual([]);
    full = false;
    due.resume('slow');
    current.set(1, 2);
    expect(ids(due.take('', 10, admit))).toEqual([2]);
    due.resume('slow');
    expect(ids(due.take('', 10, admit))).toEqual([3]);
    expect(due.size).toBe(0);
  });
});
