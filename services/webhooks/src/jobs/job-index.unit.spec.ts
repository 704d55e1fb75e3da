import { JobIndex } from './job-index';
import type { Job } from './domain/job.decider';
import { aNewJob } from './job.spec-kit';

describe('JobIndex.backlog (webhook backlog metrics)', () => {
  const job = (id: number, insertedAt: string, state: 'available' | 'retryable' | 'completed' | 'discarded') => ({
    job: { ...aNewJob(`evt_${id}`, 'wh_1', insertedAt), id, state },
    revision: 1,
  });

  it('counts the jobs not finished and gives when the oldest of them was inserted', () => {
    const index = new JobIndex();
    expect(index.backlog()).toEqual({ waiting: 0, oldestInsertedAt: null });
    index.apply(1, job(1, '2026-01-01T10:00:00.000Z', 'completed'));
    index.apply(2, job(2, '2026-01-01T11:00:00.000Z', 'retryable'));
    index.apply(3, job(3, '2026-01-01T12:00:00.000Z', 'available'));
    index.apply(4, job(4, '2026-01-01T09:00:00.000Z', 'discarded'));
    expect(index.backlog()).toEqual({ waiting: 2, oldestInsertedAt: '2026-01-01T11:00:00.000Z' });
    index.apply(2, { ...job(2, '2026-01-01T11:00:00.000Z', 'completed'), revision: 2 });
    expect(index.backlog()).toEqual({ waiting: 1, oldestInsertedAt: '2026-01-01T12:00:00.000Z' });
    index.apply(3, null);
    expect(index.backlog()).toEqual({ waiting: 0, oldestInsertedAt: null });
  });
});

describe('JobIndex.due (what the dispatcher runs next)', () => {
  const at = '2026-01-01T10:00:00.000Z';
  const later = '2026-01-01T10:05:00.000Z';
  const stored = (id: number, revision: number, change: Partial<Job> = {}, webhookId = 'wh_1') => ({
    job: { ...aNewJob(`evt_${id}`, webhookId, at), id, ...change },
    revision,
  });
  const all = () => true;
  const ids = (due: { id: number }[]) => due.map((job) => job.id);

  it('answers new jobs in order with their webhook, then a claimed one again only once its lease runs out', () => {
    const index = new JobIndex();
    index.apply(2, stored(2, 2));
    index.apply(1, stored(1, 1, {}, 'wh_2'));
    expect(index.due(at, 10, all)).toEqual([
      { id: 1, webhookId: 'wh_2' },
      { id: 2, webhookId: 'wh_1' },
    ]);
    index.apply(1, stored(1, 3, { state: 'executing', lease: { owner: 'r', until: later } }));
    expect(index.due(at, 10, all)).toEqual([]);
    expect(ids(index.due(later, 10, all))).toEqual([1]);
  });

  it('forgets a job that became final or was deleted, and skips a write it already holds', () => {
    const index = new JobIndex();
    index.apply(1, stored(1, 1));
    index.apply(2, stored(2, 2));
    index.apply(1, stored(1, 3, { state: 'completed', completed_at: at }));
    index.apply(2, null);
    expect(index.due(later, 10, all)).toEqual([]);
    expect(index.knows(1, 3)).toBe(true);
    expect(index.knows(1, 4)).toBe(false);
    let read = 0;
    index.observe(1, 3, () => {
      read++;
      return stored(1, 3);
    });
    expect(read).toBe(0);
  });

  it('queues a job again as it stands after a run that wrote nothing', () => {
    const index = new JobIndex();
    index.apply(1, stored(1, 1));
    expect(ids(index.due(at, 10, all))).toEqual([1]);
    expect(ids(index.due(at, 10, all))).toEqual([]);
    index.requeue(1);
    expect(ids(index.due(at, 10, all))).toEqual([1]);
  });

  it('holds the jobs of a webhook the dispatcher refuses until it resumes that webhook', () => {
    const index = new JobIndex();
    for (let id = 1; id <= 3; id++) index.apply(id, stored(id, id));
    index.apply(4, stored(4, 4, {}, 'wh_2'));
    let slots = 1;
    const admit = (webhookId: string) => webhookId !== 'wh_1' || slots-- > 0;
    expect(ids(index.due(at, 10, admit))).toEqual([1, 4]);
    slots = 1;
    index.resume('wh_1');
    expect(ids(index.due(at, 10, admit))).toEqual([2]);
  });
});

describe('JobIndex.overdue (jobs a replica should have run long ago)', () => {
  const insertedAt = '2026-01-01T10:00:00.000Z';
  const stored = (id: number, revision: number, change: Partial<Job> = {}) => ({
    job: { ...aNewJob(`evt_${id}`, 'wh_1', insertedAt), id, ...change },
    revision,
  });
  const now = Date.parse('2026-01-01T10:01:00.000Z');

  it('names pending jobs due for longer than the grace, and whether the queue still holds them as they stand', () => {
    const index = new JobIndex();
    index.apply(1, stored(1, 1));
    index.apply(2, stored(2, 1, { state: 'executing', lease: { owner: 'gone', until: '2026-01-01T10:00:10.000Z' } }));
    index.apply(3, stored(3, 1, { state: 'retryable', scheduled_at: '2026-01-01T10:00:55.000Z' }));
    index.apply(4, stored(4, 1, { state: 'completed', completed_at: insertedAt }));
    expect(index.overdue(now, 15_000)).toEqual([
      { id: 1, webhookId: 'wh_1', held: true },
      { id: 2, webhookId: 'wh_1', held: true },
    ]);
    // Taken off the queue by a run whose end never queued it again: no longer held.
    index.due('2026-01-01T10:01:00.000Z', 10, () => true);
    expect(index.overdue(now, 15_000)).toEqual([
      { id: 1, webhookId: 'wh_1', held: false },
      { id: 2, webhookId: 'wh_1', held: false },
    ]);
    index.requeue(1);
    expect(index.overdue(now, 15_000).map(({ id, held }) => [id, held])).toEqual([
      [1, true],
      [2, false],
    ]);
  });
});
