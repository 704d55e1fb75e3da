/** A pending job's place in the queue: when it is due, which revision it was queued at, its lane (webhook). */
export interface DueEntry {
  /** ISO time from which the job may run; '' when it may run now. */
  at: string;
  id: number;
  revision: number;
  lane: string;
}

const before = (a: DueEntry, b: DueEntry) => a.at < b.at || (a.at === b.at && a.id < b.id);
const keyOf = (entry: Pick<DueEntry, 'id' | 'revision'>) => `${entry.id}:${entry.revision}`;

/**
 * The pending jobs by due time (a binary heap), so finding the next due jobs never scans the
 * backlog. An entry is current while its job still has the revision it was queued at (`isCurrent`);
 * older entries are dropped when they surface. Jobs of a lane that is full (its webhook has as
 * many deliveries in flight as allowed) wait in that lane, oldest first, until a slot frees.
 */
export class DueQueue {
  private readonly heap: DueEntry[] = [];
  private readonly queued = new Set<string>();
  private readonly waiting = new Map<string, DueEntry[]>();
  /** Entries a freed slot sent back to the queue: one found stale passes the slot on to the next of its lane. */
  private readonly resumed = new Set<string>();

  constructor(private readonly isCurrent: (entry: DueEntry) => boolean) {}

  /** Queues a job at a revision (once: the same revision queued twice is one entry). */
  push(entry: DueEntry): void {
    const key = keyOf(entry);
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.heap.push(entry);
    this.up(this.heap.length - 1);
  }

  /**
   * Up to `limit` current entries due at `now`, oldest first, whose lane `admit` lets in (it is
   * asked once per entry taken, and counts it); the others of a full lane wait in their lane. An
   * entry resumed by a freed slot but stale by now hands that slot to its lane's next waiting
   * entry, so a lane never keeps entries waiting with no delivery left to resume it.
   */
  take(now: string, limit: number, admit: (lane: string) => boolean): DueEntry[] {
    const taken: DueEntry[] = [];
    while (taken.length < limit && this.heap.length > 0 && (this.heap[0] as DueEntry).at <= now) {
      const entry = this.pop();
      const resumed = this.resumed.delete(keyOf(entry));
      if (!this.isCurrent(entry)) {
        this.queued.delete(keyOf(entry));
        if (resumed) this.resume(entry.lane);
        continue;
      }
      if (!admit(entry.lane)) {
        this.wait(entry);
        continue;
      }
      this.queued.delete(keyOf(entry));
      taken.push(entry);
    }
    return taken;
  }

  /** A slot of `lane` freed: its oldest current waiting entry goes back to the queue. */
  resume(lane: string): void {
    const entries = this.waiting.get(lane);
    while (entries && entries.length > 0) {
      const entry = entries.shift() as DueEntry;
      if (entries.length === 0) this.waiting.delete(lane);
      if (this.isCurrent(entry)) {
        this.resumed.add(keyOf(entry));
        this.heap.push(entry);
        this.up(this.heap.length - 1);
        return;
      }
      this.queued.delete(keyOf(entry));
    }
  }

  /** Whether the job is held at that revision (queued or waiting in its lane). */
  holds(entry: Pick<DueEntry, 'id' | 'revision'>): boolean {
    return this.queued.has(keyOf(entry));
  }

  /** Entries held (queued or waiting), current or not yet dropped. */
  get size(): number {
    return this.queued.size;
  }

  private wait(entry: DueEntry): void {
    const entries = this.waiting.get(entry.lane);
    if (entries) entries.push(entry);
    else this.waiting.set(entry.lane, [entry]);
  }

  private pop(): DueEntry {
    const top = this.heap[0] as DueEntry;
    const last = this.heap.pop() as DueEntry;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    return top;
  }

  private up(index: number): void {
    const heap = this.heap;
    for (let i = index; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as DueEntry, heap[parent] as DueEntry)) return;
      [heap[i], heap[parent]] = [heap[parent] as DueEntry, heap[i] as DueEntry];
      i = parent;
    }
  }

  private down(index: number): void {
    const heap = this.heap;
    for (let i = index; ;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let first = i;
      if (left < heap.length && before(heap[left] as DueEntry, heap[first] as DueEntry)) first = left;
      if (right < heap.length && before(heap[right] as DueEntry, heap[first] as DueEntry)) first = right;
      if (first === i) return;
      [heap[i], heap[first]] = [heap[first] as DueEntry, heap[i] as DueEntry];
      i = first;
    }
  }
}
