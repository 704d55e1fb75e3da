import { JobIndex } from './job-index';
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
