/**
 * Runs tasks at most `limit` at a time; tasks of one key one after the other, in the order they
 * were added. `add` resolves once the task holds a slot (started, or queued behind its key), so a
 * reader that awaits it reads no further than the limit allows.
 */
export class KeyedLanes {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly waiting: (() => void)[] = [];
  private held = 0;

  constructor(private readonly limit: number) {}

  async add(key: string, task: () => Promise<void>): Promise<void> {
    while (this.held >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.held++;
    const previous = this.tails.get(key) ?? Promise.resolve();
    const done: Promise<void> = previous.then(task, task).finally(() => {
      this.held--;
      if (this.tails.get(key) === done) this.tails.delete(key);
      this.waiting.shift()?.();
    });
    this.tails.set(key, done);
  }

  /** Resolves once every task added so far has ended. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.allSettled([...this.tails.values()]);
  }
}
