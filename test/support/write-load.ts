import type { System } from './system';

export interface Written {
  kind: 'organization' | 'user';
  /** Organization name or user email: what the client chose, known before any answer. */
  key: string;
  /** The organization of a user. */
  domain?: string;
  /** Assigned id, when the write was acknowledged. */
  id?: string;
}

/**
 * A steady write load through the gateway (organizations, and users in them), recording the fate
 * of every request: acknowledged (201), refused before reaching the system (connection refused:
 * nothing was sent), rejected (4xx), or unknown (sent, but the answer was lost or a 5xx: it may
 * or may not have been applied). Requests are never retried, so no write is sent twice.
 */
export class WriteLoad {
  readonly acknowledged: Written[] = [];
  readonly unknown: Written[] = [];
  readonly rejected: { written: Written; status: number; body: string }[] = [];
  notSent = 0;
  private running = false;
  private workers: Promise<void>[] = [];
  private sequence = 0;
  private lastAcknowledgedAt = 0;

  constructor(
    private readonly system: System,
    private readonly token: string,
    private readonly label: string,
  ) {}

  start(concurrency = 3): void {
    this.running = true;
    this.workers = Array.from({ length: concurrency }, () => this.work());
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  /** Resolves at the first acknowledgement after `since` (ms epoch); answers how long it took. */
  async acknowledgedSince(since: number, timeoutMs = 120_000): Promise<number> {
    while (this.lastAcknowledgedAt < since) {
      if (Date.now() - since > timeoutMs) throw new Error(`no write acknowledged within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.lastAcknowledgedAt - since;
  }

  summary(): Record<string, number> {
    return {
      acknowledged: this.acknowledged.length,
      unknownOutcome: this.unknown.length,
      rejected: this.rejected.length,
      notSent: this.notSent,
    };
  }

  private async work(): Promise<void> {
    while (this.running) {
      const n = this.sequence++;
      const organizations = this.acknowledged.filter((written) => written.kind === 'organization');
      if (organizations.length < 3 || n % 3 === 0)
        await this.write({ kind: 'organization', key: `${this.label} Org ${n}` }, '/api/v2/organizations', {
          name: `${this.label} Org ${n}`,
        });
      else {
        const domain = organizations[n % organizations.length]?.domain as string;
        const email = `user${n}@example.com`;
        await this.write({ kind: 'user', key: email, domain }, `/api/v2/org/${domain}/users`, { email });
      }
    }
  }

  private async write(written: Written, path: string, body: Record<string, unknown>): Promise<void> {
    let response: Response;
    try {
      response = await fetch(`${this.system.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      if (connectionRefused(error)) {
        this.notSent++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      } else this.unknown.push(written);
      return;
    }
    const text = await response.text().catch(() => '');
    if (response.status === 201) {
      const created = JSON.parse(text) as { id: string; domain?: string };
      this.acknowledged.push({ ...written, id: created.id, domain: created.domain ?? written.domain });
      this.lastAcknowledgedAt = Date.now();
    } else if (response.status >= 500) this.unknown.push(written);
    else this.rejected.push({ written, status: response.status, body: text.slice(0, 300) });
  }
}

function connectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNREFUSED';
}
