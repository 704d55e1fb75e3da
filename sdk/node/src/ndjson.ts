import { SesameApiError } from './errors';

/** The parsed JSON lines of an NDJSON body, read as they arrive (a line split across chunks is joined). */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffered = '';
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffered += decoder.decode(chunk.value, { stream: true });
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line.trim()) yield JSON.parse(line);
      }
    }
  } finally {
    // A caller that stops iterating early closes the answer: the gateway stops streaming it.
    await reader.cancel();
  }
  buffered += decoder.decode();
  if (buffered.trim()) yield JSON.parse(buffered);
}

/**
 * The error line that ended a streamed answer (an export): the API's error, and `after`, the
 * cursor of the last line received, to resume from (`query.after`).
 */
export class SesameStreamError extends SesameApiError {
  constructor(
    error: SesameApiError,
    /** Resume from here: the cursor of the last line before the error. */
    readonly after: string,
  ) {
    super(error.status, error.type, error.message, error.fieldErrors, error.docUrls, error.correlationId, error.body);
  }
}

/** An error line of a streamed answer: `{ "error": { type, message, doc_urls }, "after": <cursor> }`. */
export function isErrorLine(line: unknown): line is { error: object; after: string } {
  if (typeof line !== 'object' || line === null) return false;
  const { error, after } = line as Record<string, unknown>;
  return typeof error === 'object' && error !== null && typeof after === 'string' && !('id' in line);
}
