import { KeyedMutex } from './keyed-mutex';

describe('KeyedMutex', () => {
  it('runs tasks of one key one after the other, other keys alongside', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`end ${name}`);
    };
    await Promise.all([mutex.run('a', task('a1', 20)), mutex.run('a', task('a2', 1)), mutex.run('b', task('b1', 1))]);
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
  });

  it('keeps going after a failed task', async () => {
    const mutex = new KeyedMutex();
    await expect(mutex.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(mutex.run('a', async () => 'ok')).resolves.toBe('ok');
  });
});
