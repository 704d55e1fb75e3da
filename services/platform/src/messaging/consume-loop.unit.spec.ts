import type { ConsumerMessages } from 'nats';
import { stopConsumingWithin } from './consume-loop';

/** The part of a consume() iterator that stopping uses: close, counted. */
function messagesClosed() {
  const closed = { count: 0 };
  const messages = {
    close: async () => {
      closed.count++;
    },
  } as unknown as ConsumerMessages;
  return { messages, closed };
}

describe('Stopping a consume loop within a bound', () => {
  it('answers true once a loop that ends in time has ended, after closing its messages', async () => {
    const { messages, closed } = messagesClosed();
    let ended = false;
    const loop = new Promise<void>((resolve) => setTimeout(resolve, 20)).then(() => {
      ended = true;
    });
    await expect(stopConsumingWithin(messages, loop, 1_000)).resolves.toBe(true);
    expect({ ended, closed: closed.count }).toEqual({ ended: true, closed: 1 });
  });

  it('answers false after the bound when the message in hand is still being handled, and leaves the loop running', async () => {
    const { messages, closed } = messagesClosed();
    let release: () => void = () => undefined;
    let ended = false;
    const loop = new Promise<void>((resolve) => {
      release = resolve;
    }).then(() => {
      ended = true;
    });
    const started = Date.now();
    await expect(stopConsumingWithin(messages, loop, 50)).resolves.toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect({ ended, closed: closed.count }).toEqual({ ended: false, closed: 1 });
    release();
    await loop;
    expect(ended).toBe(true);
  });
});
