import { KeyedLanes } from './keyed-lanes';

describe('KeyedLanes', () => {
  const deferred = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((done) => (resolve = done));
    return { promise, resolve };
  };

  it('runs tasks of different keys at once, up to the limit, and holds the reader at the limit', async () => {
    const lanes = new KeyedLanes(2);
    const started: string[] = [];
    const gates = { a: deferred(), b: deferred(), c: deferred() };
    const task = (key: keyof typeof gates) => async () => {
      started.push(key);
      await gates[key].promise;
    };
    await lanes.add('a', task('a'));
    await lanes.add('b', task('b'));
    let thirdAdded = false;
    const third = lanes.add('c', task('c')).then(() => (thirdAdded = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b']);
    expect(thirdAdded).toBe(false);
    gates.b.resolve();
    await third;
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b', 'c']);
    gates.a.resolve();
    gates.c.resolve();
    await lanes.idle();
  });

  it('runs the tasks of one key one after the other, in order, even when one fails', async () => {
    const lanes = new KeyedLanes(10);
    const order: string[] = [];
    const first = deferred();
    await lanes.add('k', async () => {
      await first.promise;
      order.push('first');
      throw new Error('boom');
    });
    await lanes.add('k', async () => void order.push('second'));
    await lanes.add('other', async () => void order.push('other'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['other']);
    first.resolve();
    await lanes.idle();
    expect(order).toEqual(['other', 'first', 'second']);
  });
});
