import { randomUUID } from 'node:crypto';
import type { System } from './system';

/**
 * What the load writes: organizations and users (identity), redirect URIs (identity, one list per
 * environment that would list a URI twice if its event were applied twice), relays (auth-methods),
 * webhooks (webhooks) and, given a directory, SCIM pushes (directory-sync, which provisions the
 * identity user: `scim-user` a POST /Users, `scim-patch` a PATCH of its given name), so that every
 * service's read models take writes during the faults.
 */
export type WrittenKind = 'organization' | 'user' | 'redirect-uri' | 'relay' | 'webhook' | 'scim-user' | 'scim-patch';

export interface Written {
  kind: WrittenKind;
  /** Organization name, user email, URL or webhook name: what the client chose, known before any answer. */
  key: string;
  /** The organization of a user or a relay. */
  domain?: string;
  /** Assigned id, when the write was acknowledged (a SCIM push's: the SCIM resource's, not the identity user's). */
  id?: string;
  /** The given name a `scim-patch` sets. */
  givenName?: string;
  /** The `Idempotency-Key` an organization's creation was sent with (replayed by `auditIdempotentReplays`). */
  idempotencyKey?: string;
}

/** A directory sync the load pushes users through (SCIM base path and bearer token), of organization `domain`, its users' emails at `emailDomain`. */
export interface ScimDirectory {
  domain: string;
  emailDomain: string;
  path: string;
  token: string;
}

/** Creates the directory sync of organization `domain` the load pushes through. */
export async function scimDirectory(system: System, domain: string, emailDomain: string): Promise<ScimDirectory> {
  const created = await system.request('POST', `/api/v2/org/${domain}/directory-sync`, { body: {} });
  if (created.status !== 201) throw new Error(`directory sync: ${created.status} ${JSON.stringify(created.body)}`);
  const path = new URL(created.body.scim_base_url as string).pathname;
  return { domain, emailDomain, path, token: created.body.auth_secret_token.value as string };
}

const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** Redirect URIs an environment may have. */
const redirectUriLimit = 200;

interface Request {
  written: Written;
  path: string;
  body: Record<string, unknown>;
  /** POST by default; a SCIM patch is a PATCH. */
  method?: 'PATCH';
  /** A SCIM push's: the directory's bearer token, its content type, and the gateway it takes (by its own turn). */
  scim?: { token: string; gateway: number };
}

/**
 * A steady write load through the gateway, recording the fate of every request: acknowledged
 * (201), refused before reaching the system (connection refused: nothing was sent), rejected
 * (4xx), or unknown (sent, but the answer was lost or a 5xx: it may or may not have been applied).
 * Requests are never retried, so no write is sent twice. Organizations are created with an
 * `Idempotency-Key` each, for `auditIdempotentReplays` to replay after the faults.
 */
export class WriteLoad {
  readonly acknowledged: Written[] = [];
  readonly unknown: Written[] = [];
  readonly rejected: { written: Written; status: number; body: string }[] = [];
  notSent = 0;
  private running = false;
  private workers: Promise<void>[] = [];
  private sequence = 0;
  private scimSequence = 0;
  private lastAcknowledgedAt = 0;
  /** Acknowledged SCIM pushes not patched yet, oldest first. */
  private readonly unpatched: Written[] = [];

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
    private readonly directory?: ScimDirectory,
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
      const request = this.next(n);
      await this.write(this.gateways[(request.scim?.gateway ?? n) % this.gateways.length] as string, request);
    }
  }

  /**
   * The n-th request: an organization every third, one of each other kind every ninth, given a
   * directory a SCIM push every ninth (a POST, every other one the PATCH of an earlier push), users
   * otherwise (and instead of redirect URIs once the environment nears its limit of 200).
   */
  private next(n: number): Request {
    const organizations = this.acknowledged.filter((written) => written.kind === 'organization');
    const redirectUris = [...this.acknowledged, ...this.unknown].filter((written) => written.kind === 'redirect-uri').length;
    const name = `${this.label} ${n}`;
    if (organizations.length < 3 || n % 3 === 0)
      return {
        written: { kind: 'organization', key: `${name} Org`, idempotencyKey: `${this.label}-${n}-${randomUUID()}` },
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
    if (n % 9 === 8 && this.directory) return this.scimPush(n, this.directory);
    const email = `user${n}@example.com`;
    return { written: { kind: 'user', key: email, domain }, path: `/api/v2/org/${domain}/users`, body: { email } };
  }

  /** A SCIM POST /Users of a new user, or every other time the PATCH of the given name of the oldest one not patched yet. */
  private scimPush(n: number, directory: ScimDirectory): Request {
    // POST, PATCH, POST, PATCH...: each pair through the next gateway, so both kinds go through each.
    const turn = this.scimSequence++;
    const scim = { token: directory.token, gateway: Math.floor(turn / 2) };
    const patched = turn % 2 === 1 ? this.unpatched.shift() : undefined;
    if (patched) {
      const givenName = `Patched ${n}`;
      return {
        written: { kind: 'scim-patch', key: patched.key, domain: directory.domain, id: patched.id, givenName },
        path: `${directory.path}/Users/${patched.id}`,
        method: 'PATCH',
        body: { schemas: [patchOp], Operations: [{ op: 'replace', path: 'name.givenName', value: givenName }] },
        scim,
      };
    }
    const email = `scim${n}@${directory.emailDomain}`;
    return {
      written: { kind: 'scim-user', key: email, domain: directory.domain },
      path: `${directory.path}/Users`,
      body: { schemas: [userSchema], userName: email, emails: [{ value: email, type: 'work', primary: true }] },
      scim,
    };
  }

  private async write(gateway: string, { written, path, body, method, scim }: Request): Promise<void> {
    let response: Response;
    try {
      response = await fetch(`${gateway}${path}`, {
        method: method ?? 'POST',
        headers: {
          authorization: `Bearer ${scim?.token ?? this.token}`,
          'content-type': scim ? 'application/scim+json' : 'application/json',
          ...(written.idempotencyKey ? { 'idempotency-key': written.idempotencyKey } : {}),
        },
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
      if (written.kind === 'scim-user') this.unpatched.push({ ...written, id: created.id });
      this.lastAcknowledgedAt = Date.now();
    } else if (response.status === 204 && method === 'PATCH') {
      this.acknowledged.push(written);
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
