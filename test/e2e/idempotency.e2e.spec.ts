import { request } from 'node:http';
import { connect } from 'nats';
import { subjects } from '@sesame/contracts';
import type { RpcReply } from '@sesame/contracts';
import { RpcClient } from '@sesame/platform/messaging';
import { fingerprintOf, storeKeyOf } from '../../gateway/src/idempotency/idempotency-decision';
import { startSecondGateway } from '../support/second-gateway';
import type { SecondGateway } from '../support/second-gateway';
import { unauthorized } from '../support/identity-fixtures';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';

const docs = ['http://localhost:8000/how-to-use-api-key#idempotent-requests'];
const reused = {
  error: {
    type: 'idempotency_key_reused',
    message: 'This Idempotency-Key was used with another request: send a new key for a different request',
    doc_urls: docs,
  },
};
const inProgress = {
  error: {
    type: 'idempotency_request_in_progress',
    message: 'A request with this Idempotency-Key is still in progress: retry later to get its answer',
    doc_urls: docs,
  },
};
const invalidKey = {
  error: {
    type: 'invalid_idempotency_key',
    message: 'The Idempotency-Key header must be 1 to 255 printable ASCII characters',
    doc_urls: docs,
  },
};
const notFound = {
  error: { type: 'resource_not_found', message: 'Resource Not Found', doc_urls: ['http://localhost:8000/api'] },
};

let counter = 0;
/** A name (hence an organization domain) and an idempotency key no other test uses. */
const fresh = () => {
  counter += 1;
  return { name: `Idem ${counter} ${Date.now()}`, key: `key-${counter}-${Math.random().toString(36).slice(2)}` };
};

describe('Idempotency-Key on POST (all processes, two gateways, real NATS key-value store)', () => {
  let system: System;
  let production: ApiKey;
  let second: SecondGateway;
  beforeAll(async () => {
    system = await System.start();
    production = system.createApiKey('production');
    second = await startSecondGateway(system);
  });
  afterAll(async () => {
    await second?.stop();
    await system?.stop();
  });

  const createOrganization = (name: string, key?: string, options: { apiKey?: ApiKey; baseUrl?: string } = {}) =>
    post(options.baseUrl ?? system.baseUrl, '/api/v2/organizations', { name }, key, options.apiKey);

  async function post(baseUrl: string, path: string, body: unknown, key?: string, apiKey?: ApiKey) {
    const headers: Record<string, string> = {
      authorization: `Bearer ${await system.token(apiKey)}`,
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    };
    const answer = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return {
      status: answer.status,
      body: (await answer.json()) as any,
      replayed: answer.headers.get('idempotent-replayed'),
      contentType: answer.headers.get('content-type'),
    };
  }

  /**
   * Sends a creation and aborts it (AbortController) as soon as the request has left, before any
   * answer: the client of a timed-out request that never learns what happened.
   */
  async function sendThenGiveUp(name: string, key: string): Promise<void> {
    const abort = new AbortController();
    const body = JSON.stringify({ name });
    const headers = {
      authorization: `Bearer ${await system.token()}`,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'idempotency-key': key,
    };
    await new Promise<void>((resolve, reject) => {
      const sent = request(`${system.baseUrl}/api/v2/organizations`, { method: 'POST', headers, signal: abort.signal });
      sent.on('response', () => reject(new Error('answered before the client gave up')));
      sent.on('error', reject);
      sent.on('finish', () => abort.abort());
      sent.end(body);
    });
  }

  /** The organizations of the key's environment named `name`. */
  const named = async (name: string, apiKey?: ApiKey) =>
    (await system.request('GET', '/api/v2/organizations?per_page=100', { key: apiKey })).body.data.filter(
      (organization: { name: string }) => organization.name === name,
    );

  it('creates once and answers the first answer again, marked Idempotent-Replayed', async () => {
    const { name, key } = fresh();
    const first = await createOrganization(name, key);
    expect(first).toMatchObject({ status: 201, replayed: null });
    const again = await createOrganization(name, key);
    expect(again).toEqual({ ...first, replayed: 'true' });
    expect((await named(name)).map((organization: { id: string }) => organization.id)).toEqual([first.body.id]);
  });

  it('refuses the key with another body, then still replays the first request', async () => {
    const { name, key } = fresh();
    const first = await createOrganization(name, key);
    expect(await createOrganization(`${name} other`, key)).toMatchObject({ status: 422, body: reused, replayed: null });
    expect(await named(`${name} other`)).toEqual([]);
    expect(await createOrganization(name, key)).toEqual({ ...first, replayed: 'true' });
  });

  it('refuses the key on another path', async () => {
    const { name, key } = fresh();
    await createOrganization(name, key);
    const answer = await post(system.baseUrl, '/api/v2/org/unknown-org/users', { email: 'a@idem.example' }, key);
    expect(answer).toMatchObject({ status: 422, body: reused });
  });

  it('keeps keys apart per API key and per environment', async () => {
    const { name, key } = fresh();
    const otherSandboxKey = system.createApiKey('sandbox');
    const first = await createOrganization(name, key);
    const other = await createOrganization(`${name} b`, key, { apiKey: otherSandboxKey });
    const prod = await createOrganization(`${name} c`, key, { apiKey: production });
    expect([first.status, other.status, prod.status]).toEqual([201, 201, 201]);
    expect([other.replayed, prod.replayed]).toEqual([null, null]);
    expect(await named(`${name} b`)).toHaveLength(1);
    expect(await named(`${name} c`, production)).toHaveLength(1);
    expect(await createOrganization(`${name} b`, key, { apiKey: otherSandboxKey })).toEqual({ ...other, replayed: 'true' });
  });

  it('lets exactly one of 10 concurrent duplicates do the work; the others are replayed or told it is in progress', async () => {
    const { name, key } = fresh();
    const answers = await Promise.all(Array.from({ length: 10 }, () => createOrganization(name, key)));
    const created = await named(name);
    expect(created).toHaveLength(1);
    for (const answer of answers)
      if (answer.status === 409) expect(answer).toMatchObject({ body: inProgress, replayed: null });
      else expect(answer).toMatchObject({ status: 201, body: { id: created[0].id } });
    const fresh201 = answers.filter((answer) => answer.status === 201 && answer.replayed === null);
    expect(fresh201).toHaveLength(1);
    console.log(
      `10 concurrent duplicates: ${answers.map((answer) => `${answer.status}${answer.replayed ? 'r' : ''}`).join(' ')}`,
    );
    expect(await createOrganization(name, key)).toMatchObject({ status: 201, replayed: 'true', body: { id: created[0].id } });
  });

  it('replays to a client that gave up waiting: the retry gets the answer it missed, one resource', async () => {
    const { name, key } = fresh();
    await expect(sendThenGiveUp(name, key)).rejects.toThrow('aborted');
    const started = Date.now();
    while ((await named(name)).length === 0) {
      if (Date.now() - started > 10_000) throw new Error('the aborted request never created its organization');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    let retry = await createOrganization(name, key);
    while (retry.status === 409) retry = await createOrganization(name, key);
    expect(retry).toMatchObject({ status: 201, replayed: 'true' });
    expect((await named(name)).map((organization: { id: string }) => organization.id)).toEqual([retry.body.id]);
  });

  it('shares keys between gateway replicas', async () => {
    const { name, key } = fresh();
    const first = await createOrganization(name, key, { baseUrl: second.url });
    expect(first).toMatchObject({ status: 201, replayed: null });
    expect(await createOrganization(name, key)).toEqual({ ...first, replayed: 'true' });
    const next = fresh();
    const answers = await Promise.all(
      [system.baseUrl, second.url, system.baseUrl, second.url].map((baseUrl) =>
        createOrganization(next.name, next.key, { baseUrl }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201 && answer.replayed === null)).toHaveLength(1);
    expect(await named(next.name)).toHaveLength(1);
  });

  it('keeps a 4xx answer of the service, but not a refusal of the gateway before the work', async () => {
    const { name, key } = fresh();
    const domain = name.toLowerCase().replace(/ /g, '-');
    const path = `/api/v2/org/${domain}/users`;
    expect(await post(system.baseUrl, path, { email: 'a@idem.example' }, key)).toMatchObject({ status: 404, body: notFound });
    expect((await createOrganization(name)).body.domain).toBe(domain);
    expect(await post(system.baseUrl, path, { email: 'a@idem.example' }, key)).toMatchObject({
      status: 404,
      body: notFound,
      replayed: 'true',
    });
    const other = fresh();
    const invalid = await post(system.baseUrl, '/api/v2/organizations', { name: '' }, other.key);
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toBeDefined();
    expect(await createOrganization(other.name, other.key)).toMatchObject({ status: 201, replayed: null });
  });

  it('refuses a keyed request without a token or without the scope before it claims the key: the owner then uses it', async () => {
    const { name, key } = fresh();
    const headers = { 'content-type': 'application/json', 'idempotency-key': key };
    const body = JSON.stringify({ name });
    const anonymous = await fetch(`${system.baseUrl}/api/v2/organizations`, { method: 'POST', headers, body });
    expect({ status: anonymous.status, body: await anonymous.json() }).toEqual({ status: 401, body: unauthorized });
    const reader = system.createApiKey('sandbox', ['organizations:read']);
    expect(await createOrganization(name, key, { apiKey: reader })).toMatchObject({
      status: 401,
      body: unauthorized,
      replayed: null,
    });
    expect(await named(name)).toEqual([]);
    expect(await createOrganization(name, key)).toMatchObject({ status: 201, replayed: null });
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['with a control character', 'a\tb'],
  ])('refuses a key %s with 400 and does nothing', async (_case, key) => {
    const { name } = fresh();
    expect(await createOrganization(name, key)).toMatchObject({ status: 400, body: invalidKey });
    expect(await named(name)).toEqual([]);
  });

  it('accepts a key of 255 printable characters', async () => {
    const { name } = fresh();
    const key = `${' !~'.repeat(85)}`;
    expect(await createOrganization(name, key)).toMatchObject({ status: 201 });
    expect(await createOrganization(name, key)).toMatchObject({ status: 201, replayed: 'true' });
  });

  it('keeps no 5xx answer: a retry after the service came back does the work', async () => {
    const { name, key } = fresh();
    await system.kill(['identity']);
    try {
      expect(await createOrganization(name, key)).toMatchObject({
        status: 503,
        body: { error: { type: 'service_unavailable', message: 'Service Unavailable', doc_urls: ['http://localhost:8000/api'] } },
      });
    } finally {
      await system.restart(['identity']);
    }
    expect(await createOrganization(name, key)).toMatchObject({ status: 201, replayed: null });
    expect(await createOrganization(name, key)).toMatchObject({ status: 201, replayed: 'true' });
    expect(await named(name)).toHaveLength(1);
  });

  describe('a key left in progress by a gateway that died mid-request', () => {
    /** Writes the record a gateway writes when it claims a key, claimed `ageMs` ago. */
    async function leaveInFlight(name: string, key: string, ageMs: number) {
      const nc = await connect(system.natsOptions());
      try {
        const kv = await nc.jetstream().views.kv(`${system.prefix}_idempotency`);
        const record = {
          state: 'in_flight',
          fingerprint: fingerprintOf('POST', '/api/v2/organizations', { name }),
          claimed_at: Date.now() - ageMs,
        };
        return await kv.create(storeKeyOf(system.apiKey, key), JSON.stringify(record));
      } finally {
        await nc.close();
      }
    }

    it('replays the answer the service stored when the gateway died after sending the request', async () => {
      const { name, key } = fresh();
      const storeKey = storeKeyOf(system.apiKey, key);
      const fingerprint = fingerprintOf('POST', '/api/v2/organizations', { name });
      const revision = await leaveInFlight(name, key, 0);
      // What a gateway sends before it dies: the request with its claim; nobody stores the answer it gets.
      const rpc = await RpcClient.connect({
        nats: system.natsOptions('dying-gateway'),
        prefix: system.prefix,
        timeoutMs: 10_000,
      });
      let sent: RpcReply;
      try {
        const { clientId, environment, scopes } = system.apiKey;
        const idempotency = { key: storeKey, revision, fingerprint, subject: subjects.identity.organizations.create };
        sent = await rpc.request(subjects.identity.organizations.create, {
          meta: { correlationId: `dying-${key}`, clientId, environment, scopes, idempotency },
          input: { params: {}, query: {}, body: { name } },
        });
      } finally {
        await rpc.close();
      }
      expect(sent).toMatchObject({ ok: true, status: 201, answerStored: true });
      const retry = await createOrganization(name, key);
      expect(retry).toMatchObject({ status: 201, replayed: 'true' });
      expect(retry.body).toEqual((sent as { body: unknown }).body);
      expect(await named(name)).toHaveLength(1);
    });

    it('answers 409 in progress while the claim is recent', async () => {
      const { name, key } = fresh();
      await leaveInFlight(name, key, 0);
      expect(await createOrganization(name, key)).toMatchObject({ status: 409, body: inProgress });
      expect(await named(name)).toEqual([]);
    });

    it('lets a retry take it over after 60 seconds: the work runs, and its answer is then replayed', async () => {
      const { name, key } = fresh();
      await leaveInFlight(name, key, 61_000);
      const takeover = await createOrganization(name, key);
      expect(takeover).toMatchObject({ status: 201, replayed: null });
      expect(await createOrganization(name, key)).toEqual({ ...takeover, replayed: 'true' });
      expect(await named(name)).toHaveLength(1);
    });
  });

  // Last: it deletes the bucket, which the gateways do not recreate while they run.
  it('refuses a keyed request with 503 when the store does not answer, rather than risk doing it twice', async () => {
    const { name, key } = fresh();
    const nc = await connect(system.natsOptions());
    try {
      await (await nc.jetstreamManager()).streams.delete(`KV_${system.prefix}_idempotency`);
    } finally {
      await nc.close();
    }
    expect(await createOrganization(name, key)).toMatchObject({
      status: 503,
      body: { error: { type: 'service_unavailable', message: 'Service Unavailable', doc_urls: ['http://localhost:8000/api'] } },
    });
    expect(await named(name)).toEqual([]);
    expect(await createOrganization(name)).toMatchObject({ status: 201, replayed: null });
  });
});
