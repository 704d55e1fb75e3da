import { Worker } from 'node:worker_threads';
import type { ResponseExpectations, ValidationResult } from './response-validator';

interface Pending {
  resolve(result: ValidationResult): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * SAML Response validation (XML parsing and signature checks, several milliseconds of CPU each)
 * on worker threads, so a flood of ACS posts does not hold the service's event loop: other
 * requests keep being answered. Calls go round-robin; a thread that dies fails its pending calls
 * and is replaced.
 */
export class ValidationPool {
  private readonly threads: Thread[];
  private next = 0;
  private sequence = 0;
  private closed = false;

  /** `workerFile`: the built `validation-worker.js`. */
  constructor(
    private readonly workerFile: string,
    size: number,
  ) {
    this.threads = Array.from({ length: size }, () => this.spawn());
  }

  validate(xml: string, expected: ResponseExpectations): Promise<ValidationResult> {
    if (this.closed) return Promise.reject(new Error('SAML validation pool is closed'));
    const index = this.next++ % this.threads.length;
    const thread = this.threads[index] as Thread;
    const id = ++this.sequence;
    return new Promise<ValidationResult>((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ id, xml, expected });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((thread) => thread.worker.terminate()));
  }

  private spawn(): Thread {
    const thread: Thread = { worker: new Worker(this.workerFile), pending: new Map() };
    thread.worker.unref();
    thread.worker.on('message', (message: { id: number; result?: ValidationResult; error?: string }) => {
      const call = thread.pending.get(message.id);
      thread.pending.delete(message.id);
      if (message.result) call?.resolve(message.result);
      else call?.reject(new Error(message.error ?? 'SAML validation failed'));
    });
    thread.worker.on('error', (error) => this.fail(thread, error));
    thread.worker.on('exit', (code) => this.fail(thread, new Error(`SAML validation thread exited with code ${code}`)));
    return thread;
  }

  /** Fails the calls a dead thread held and, unless the pool is closing, puts a new thread in its place. */
  private fail(thread: Thread, error: Error): void {
    for (const call of thread.pending.values()) call.reject(error);
    thread.pending.clear();
    const index = this.threads.indexOf(thread);
    if (!this.closed && index >= 0) this.threads[index] = this.spawn();
  }
}
