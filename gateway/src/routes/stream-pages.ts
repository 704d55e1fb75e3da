import type { AppError, RpcReply } from '@sesame/contracts';
import { catalogueError } from '@sesame/contracts';

/** A page an operation with `streamPages` answers. */
export interface StreamedPage {
  data: unknown[];
  list_metadata: { after: string; has_more: boolean };
}

/** What the lines are written to: an HTTP response (`write` answers false when its buffer is full). */
export interface LineSink {
  write(chunk: string): boolean;
  end(): void;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  readonly destroyed: boolean;
}

/**
 * Writes the pages of an operation as JSON lines, holding one page at a time: each page's items,
 * then, once the sink has drained, the next page (`next(after)`) while `has_more`. A failed page
 * (an error reply or a transport error) ends the stream with the line
 * `{ "error": { type, message, doc_urls }, "after": <cursor of the last line written> }` (the API's error body); a closed sink stops the asking.
 */
export async function streamPages(
  sink: LineSink,
  first: StreamedPage,
  next: (after: string) => Promise<RpcReply>,
  errorOf: (error: AppError) => object,
): Promise<void> {
  let page = first;
  for (;;) {
    const lines = page.data.map((item) => `${JSON.stringify(item)}\n`).join('');
    if (lines && !sink.write(lines) && !sink.destroyed) await drained(sink);
    if (sink.destroyed) return;
    if (!page.list_metadata.has_more) break;
    const after = page.list_metadata.after;
    let reply: RpcReply;
    try {
      reply = await next(after);
    } catch {
      reply = { ok: false, error: catalogueError('service_unavailable') };
    }
    if (!reply.ok) {
      sink.write(`${JSON.stringify({ ...errorOf(reply.error), after })}\n`);
      break;
    }
    page = reply.body as StreamedPage;
  }
  sink.end();
}

const drained = (sink: LineSink) =>
  new Promise<void>((resolve) => {
    sink.once('drain', resolve);
    sink.once('close', resolve);
  });
