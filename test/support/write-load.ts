import type { System } from './system';

/**
 * What the load writes: organizations and users (identity), redirect URIs (identity, one list per
 * environment that would list a URI twice if its event were applied twice), relays (auth-methods)
 * and webhooks (webhooks), so that every service's read models take writes during the faults.
 */
export type WrittenKind = 'organization' | 'user' | 'redirect-uri' | 'relay' | 'webhook';

export interface Written {
  kind: WrittenKind;
  /** Organization name, user email, URL or webhook name: what the client chose, known before any answer. */
  key: string;
  /** The organization of a user or a relay. */
  domain?: string;
  /** Assigned id, when the write was acknowledged. */
  id?: string;
}

/** Redirect URIs an environment may have. */
const redirectUriLimit = 200;

interface Request {
  written: Written;
  path: string;
  body: Record<string, unknown>;
}

/**
 * A steady write load through the gateway, recording the fate of every request: acknowledged
 * (201), refused before reaching the system (connection refused: nothing was sent), rejected
 * (4xx), or unknown (sent, but the answer was lost or a 5xx: it may or may not have been applied).
 * Requests are never retried, so no write is sent twice.
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

  /**
   * `webhookTarget`: where the webhooks the load creates point (they listen to an event the load
   * never causes). `gateways`: the gateways' URLs the requests take turns through (the system's by default).
   */
  constructor(
    system: System,
    private readonly token: string,
    private readonly label: string,
    private readonly webhookTarget: string,
    private readonly gateways: string[] = [system.baseUrl],
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

  summary(): Record<string, unknown> {
    const byKind: Partial<Record<WrittenKind, number>> = {};
    for (const written of this.acknowledged) byKind[written.kind] = (byKind[written.kind] ?? 0) + 1;
    return {
      acknowledged: this.acknowledged.length,
      acknowledgedByKind: byKind,
      unknownOutcome: this.unknown.length,
      rejected: this.rejected.length,
      notSent: this.notSent,
    };
  }

  private async work(): Promise<void> {
    while (this.running) {
      const n = this.sequence++;
      const { written, path, body } = this.next(n);
      await this.write(this.gateways[n % this.gateways.length] as string, written, path, body);
    }
  }

  /**
   * The n-th request: an organization every third, one of each other kind every ninth, users
   * otherwise (and instead of redirect URIs once the environment nears its limit of 200).
   */
  private next(n: number): Request {
    const organizations = this.acknowledged.filter((written) => written.kind === 'organization');
    const redirectUris = [...this.acknowledged, ...this.unknown].filter((written) => written.kind === 'redirect-uri').length;
    const name = `${this.label} ${n}`;
    if (organizations.length < 3 || n % 3 === 0)
      return {
        written: { kind: 'organization', key: `${name} Org` },
        path: '/api/v2/organizations',
        body: { name: `${name} Org` },
      };
    const domain = organizations[n % organizations.length]?.domain as string;
    if (n % 9 === 1 && redirectUris < redirectUriLimit - 50) {
      const url = `https://app.example.com/${this.label.toLowerCase()}/callback/${n}`;
      return { written: { kind: 'redirect-uri', key: url }, path: '/api/v2/redirect_uris', body: { url } };
    }
    if (n % 9 === 4) {
      const uri = `https://partner.example.com/${this.label.toLowerCase()}/relay/${n}`;
      return {
        written: { kind: 'relay', key: uri, domain },
        path: '/api/v2/relays',
        body: { partner_domain: domain, partner_redirect_uri: uri },
      };
    }
    if (n % 9 === 7)
      return {
        written: { kind: 'webhook', key: `${name} Hook` },
        path: '/api/v2/webhooks',
        body: { name: `${name} Hook`, event_codes: ['organization.deleted'], target_url: `${this.webhookTarget}/idle/${n}` },
      };
    const email = `user${n}@example.com`;
    return { written: { kind: 'user', key: email, domain }, path: `/api/v2/org/${domain}/users`, body: { email } };
  }

  private async write(gateway: string, written: Written, path: string, body: Record<string, unknown>): Promise<void> {
    let response: Response;
    try {
      response = await fetch(`${gateway}${path}`, {
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
      const domain = written.kind === 'organization' ? created.domain : written.domain;
      this.acknowledged.push({ ...written, id: created.id, ...(domain ? { domain } : {}) });
      this.lastAcknowledgedAt = Date.now();
    } else if (response.status >= 500) {
      this.unknown.push(written);
      // A process is down: do not hammer the gateway with writes it cannot place meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 50));
    } else this.rejected.push({ written, status: response.status, body: text.slice(0, 300) });
  }
}

function connectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNREFUSED';
}
