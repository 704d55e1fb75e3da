/**
 * What a store instance last saw of a stream: the revision and JetStream sequence of its last
 * commit, and (while the byte budget allows) the raw commits of the whole stream in order, so
 * that reading the stream again costs one direct get of its last commit and only the commits
 * appended since, not a consumer over its whole history. Commits are kept encoded: each read
 * decodes fresh events, so no caller can change what another one reads.
 */
export interface KnownStream {
  revision: number;
  seq: number;
  /** Every commit of the stream up to `seq`, as JetStream holds them; absent once evicted or unknown. */
  commits?: Uint8Array[];
}

/** Least recently used first out: at most `maxStreams` streams, and at most `maxBytes` of kept commits. */
export class CommitCache {
  private readonly streams = new Map<string, { known: KnownStream; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly maxStreams = 10_000,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  get(stream: string): KnownStream | undefined {
    return this.streams.get(stream)?.known;
  }

  /** A stream whose commits alone exceed the budget is remembered without them. */
  remember(stream: string, known: KnownStream): void {
    this.forget(stream);
    const bytes = known.commits?.reduce((sum, commit) => sum + commit.length, 0) ?? 0;
    const kept = bytes > this.maxBytes ? { known: { revision: known.revision, seq: known.seq }, bytes: 0 } : { known, bytes };
    this.streams.set(stream, kept);
    this.bytes += kept.bytes;
    while (this.streams.size > this.maxStreams || this.bytes > this.maxBytes)
      this.forget(this.streams.keys().next().value as string);
  }

  forget(stream: string): void {
    const entry = this.streams.get(stream);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.streams.delete(stream);
  }

  clear(): void {
    this.streams.clear();
    this.bytes = 0;
  }
}
