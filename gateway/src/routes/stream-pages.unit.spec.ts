import { EventEmitter } from 'node:events';
import { catalogueError } from '@sesame/contracts';
import type { RpcReply } from '@sesame/contracts';
import { streamPages } from './stream-pages';
import type { StreamedPage } from './stream-pages';

/** A response whose buffer is full after each write until `drain()` (a paused reader). */
class SlowSink extends EventEmitter {
  written: string[] = [];
  ended = false;
  destroyed = false;
  write(chunk: string) {
    this.written.push(chunk);
    return false;
  }
  end() {
    this.ended = true;
  }
  drain() {
    this.emit('drain');
  }
}

const page = (items: number[], after: string, has_more: boolean): StreamedPage => ({
  data: items.map((n) => ({ n })),
  list_metadata: { after, has_more },
});
const answer = (body: StreamedPage): RpcReply => ({ ok: true, status: 200, body });
const settle = () => new Promise((resolve) => setImmediate(resolve));
const errorOf = (error: unknown) => ({ error });

describe('streaming the pages of an operation', () => {
  it('asks the next page only once the previous one has drained, and ends after the last', async () => {
    const sink = new SlowSink();
    const asked: string[] = [];
    const pages: Record<string, StreamedPage> = { c1: page([3, 4], 'c2', true), c2: page([5], 'c3', false) };
    const done = streamPages(
      sink,
      page([1, 2], 'c1', true),
      async (after) => (asked.push(after), answer(pages[after] as StreamedPage)),
      errorOf,
    );
    await settle();
    expect(sink.written).toEqual(['{"n":1}\n{"n":2}\n']);
    expect(asked).toEqual([]);
    sink.drain();
    await settle();
    expect(asked).toEqual(['c1']);
    expect(sink.written).toHaveLength(2);
    sink.drain();
    await settle();
    sink.drain();
    await done;
    expect(asked).toEqual(['c1', 'c2']);
    expect(sink.written.join('')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n{"n":5}\n');
    expect(sink.ended).toBe(true);
  });

  it('ends with an error line naming the cursor to resume from when a page fails', async () => {
    const sink = new SlowSink();
    sink.write = (chunk: string) => (sink.written.push(chunk), true);
    await streamPages(
      sink,
      page([1], 'c1', true),
      async () => ({ ok: false, error: catalogueError('internal_server_error') }),
      errorOf,
    );
    expect(sink.written).toEqual([
      '{"n":1}\n',
      `${JSON.stringify({ error: catalogueError('internal_server_error'), after: 'c1' })}\n`,
    ]);
    expect(sink.ended).toBe(true);
  });

  it('answers service_unavailable in the error line when no service answers', async () => {
    const sink = new SlowSink();
    sink.write = (chunk: string) => (sink.written.push(chunk), true);
    await streamPages(sink, page([], 'c0', true), () => Promise.reject(new Error('timeout')), errorOf);
    expect(sink.written).toEqual([`${JSON.stringify({ error: catalogueError('service_unavailable'), after: 'c0' })}\n`]);
  });

  it('stops asking when the client goes away while the response is full', async () => {
    const sink = new SlowSink();
    const asked: string[] = [];
    const done = streamPages(
      sink,
      page([1], 'c1', true),
      async (after) => (asked.push(after), answer(page([2], 'c2', false))),
      errorOf,
    );
    await settle();
    sink.destroyed = true;
    sink.emit('close');
    await done;
    expect(asked).toEqual([]);
    expect(sink.ended).toBe(false);
  });
});
