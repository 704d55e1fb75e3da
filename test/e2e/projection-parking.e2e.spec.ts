import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { eventSubjectPrefix } from '@sesame/contracts';
import { JetStreamEventStore } from '@sesame/platform/event-store';
import { jetStreamName } from '@sesame/platform/stores';
import { freePort } from '../support/free-port';
import { createOrganization, eventually } from '../support/identity-fixtures';
import { rawRequest } from '../support/raw-http';
import { System, repoRoot } from '../support/system';
import type { ApiKey } from '../support/system';

/** `{ a: { a: … 'x' } }`, `depth` objects deep. */
function nested(depth: number): Record<string, unknown> {
  let value: unknown = 'x';
  for (let level = 0; level < depth; level++) value = { a: value };
  return value as Record<string, unknown>;
}

/**
 * Regression (issue 16, defect 2): an SSO connection's `onboarding` accepted JSON of any depth; a
 * body a few thousand levels deep was stored, the read model could not hold it, and the event
 * subscription retried that commit forever: later changes (an API-key revocation) never reached the
 * read models, and a restarted service never became ready. Now the edge refuses such input, and a
 * commit a projection cannot apply (appended here straight to the event store, as the edge no longer
 * lets one through) is parked, counted and logged once, and the projection goes on.
 */
describe('Free-form fields bounded at the edge, unappliable commits parked (all processes, real NATS)', () => {
  let system: System;
  let nc: NatsConnection;
  let authMethodsPort: number;
  let domain: string;
  const path = () => `/api/v2/org/${domain}/sso-connection`;

  beforeAll(async () => {
    authMethodsPort = await freePort();
    system = await System.start({ processEnv: { 'auth-methods': { SESAME_HTTP_PORT: String(authMethodsPort) } } });
    nc = await connect(system.natsOptions());
    domain = await createOrganization(system, 'Deep Corp');
    expect((await system.request('POST', path(), { body: { provider_type: 'okta', onboarding: { step: 1 } } })).status).toBe(201);
  });
  afterAll(async () => {
    await nc?.close();
    await system?.stop();
  });

  it('answers 400 to JSON nested thousands of levels deep, in the API shape, and changes nothing', async () => {
    const before = await system.request('GET', path());
    const body = `{"provider_type":"okta","onboarding":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`;
    const answer = await rawRequest(system.baseUrl, {
      method: 'PUT',
      path: path(),
      headers: { authorization: `Bearer ${await system.token()}`, 'content-type': 'application/json' },
      body,
    });
    expect([answer.status, answer.json]).toEqual([
      400,
      {
        error: {
          type: 'bad_request',
          message: 'JSON body nested too deep (at most 32 levels)',
          doc_urls: ['http://localhost:8000/api'],
        },
      },
    ]);
    expect(answer.headers['x-correlation-id']).toEqual(expect.any(String));
    expect(await system.request('GET', path())).toMatchObject({ status: 200, body: before.body });
  });

  it('answers 400 to form brackets nested past the limit', async () => {
    const form = `provider_type=okta&onboarding${'[a]'.repeat(2_000)}=1`;
    const answer = await system.request('PUT', path(), { form });
    expect([answer.status, answer.body]).toEqual([
      400,
      {
        error: {
          type: 'bad_request',
          message: 'Form fields nested too deep (at most 5 levels of brackets)',
          doc_urls: ['http://localhost:8000/api'],
        },
      },
    ]);
  });

  it('answers 422 field errors to an onboarding nested over 10 levels or over 16 KB, and keeps 10 levels', async () => {
    const before = await system.request('GET', path());
    expect(await system.request('PUT', path(), { body: { onboarding: nested(11) } })).toMatchObject({
      status: 422,
      body: { errors: { onboarding: ['must be nested at most 10 levels deep'] } },
    });
    expect(await system.request('PUT', path(), { body: { onboarding: { notes: 'x'.repeat(17_000) } } })).toMatchObject({
      status: 422,
      body: { errors: { onboarding: ['must be at most 16384 bytes as JSON'] } },
    });
    expect(await system.request('GET', path())).toMatchObject({ status: 200, body: before.body });
    const kept = await system.request('PUT', path(), { body: { onboarding: nested(10) } });
    expect(kept).toMatchObject({ status: 200, body: { onboarding: nested(10) } });
  });

  it('answers SCIM requests nested too deep in the SCIM shape: 400 invalidSyntax for the body, invalidValue for the resource', async () => {
    const sync = await system.request('POST', `/api/v2/org/${domain}/directory-sync`, { body: { provider_type: 'okta' } });
    expect(sync.status).toBe(201);
    const base = new URL(sync.body.scim_base_url).pathname;
    const headers = { authorization: `Bearer ${sync.body.auth_secret_token.value}`, 'content-type': 'application/scim+json' };
    const user = { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'ada@deep.example', active: true };
    const deepBody = `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"a@deep.example","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
    const tooDeep = await rawRequest(system.baseUrl, { method: 'POST', path: `${base}/Users`, headers, body: deepBody });
    expect([tooDeep.status, tooDeep.json]).toEqual([
      400,
      {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '400',
        scimType: 'invalidSyntax',
        detail: 'JSON body nested too deep (at most 32 levels)',
      },
    ]);
    const extension = { 'urn:example:deep': nested(10) };
    const refused = await system.request('POST', `${base}/Users`, { token: null, headers, body: { ...user, ...extension } });
    expect([refused.status, refused.body]).toEqual([
      400,
      {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '400',
        scimType: 'invalidValue',
        detail: 'base must be nested at most 10 levels deep',
      },
    ]);
    expect((await system.request('GET', `${base}/Users`, { token: null, headers })).body).toMatchObject({ totalResults: 0 });
  });

  it('parks a commit the read model cannot hold, applies later commits, and becomes ready after a restart', async () => {
    // A key the read model holds before the commit it cannot apply: its revocation reaches only the read model.
    const key = system.createApiKey('sandbox');
    await expect(tokenStatus(key)).resolves.toBe(200);
    const eventStore = await JetStreamEventStore.open(nc, {
      streamName: jetStreamName(system.prefix, 'auth-methods'),
      subjectPrefix: eventSubjectPrefix(system.prefix, 'auth-methods'),
    });
    const organization = await system.request('GET', `/api/v2/organizations/${domain}`);
    // The connection's stream is its organization's (`ssoConnection-<environment>:<organization id>`).
    const stream = `ssoConnection-sandbox:${organization.body.id as string}`;
    const current = await eventStore.readStream(stream);
    const last = current.events.at(-1)?.data as { settings: Record<string, unknown> };
    const { events } = await eventStore.appendToStream(
      stream,
      [
        {
          type: 'SsoConnectionUpdated',
          data: { ...last, settings: { ...last.settings, onboarding: nested(3_000) }, at: new Date().toISOString() },
        },
      ],
      {
        expectedRevision: current.revision,
        metadata: { correlationId: 'deep-onboarding', occurredAt: new Date().toISOString() },
      },
    );
    const parkedEvent = events[0] as { id: string; revision: number };

    // A later change from outside the service (the CLI appends to the event store): only the subscription applies it.
    revokeApiKey(key.clientId);
    await eventually(async () => (await tokenStatus(key)) === 401, 20_000);

    const metrics = await fetch(`http://127.0.0.1:${authMethodsPort}/metrics`).then((response) => response.text());
    expect(metrics).toMatch(/^sesame_projection_parked_total\{[^}]*read_model="sso_connections_v2"[^}]*\} 1$/m);
    const parked = await (
      await nc.jetstream().views.kv(`${system.prefix}_parked_commits`)
    ).get(`auth-methods.sso_connections_v2.${parkedEvent.id}`);
    expect(parked?.json()).toEqual({
      service: 'auth-methods',
      read_model: 'sso_connections_v2',
      event_id: parkedEvent.id,
      event_type: 'SsoConnectionUpdated',
      stream,
      revision: parkedEvent.revision,
      position: expect.stringMatching(/^\d+$/),
      error: 'ReadModelLimitError: document nested deeper than 100 levels',
      parked_at: expect.any(String),
    });
    const log = readFileSync(join(system.logDir, 'auth-methods.log'), 'utf8');
    const parkedLines = log.split('\n').filter((line) => line.includes('projection commit parked'));
    expect(parkedLines).toHaveLength(1);
    expect(JSON.parse(parkedLines[0] as string)).toMatchObject({
      level: 'error',
      event_id: parkedEvent.id,
      read_model: 'sso_connections_v2',
    });
    expect(log).not.toContain('{"a":{"a":');

    // The read model kept the connection as it was before the commit it could not apply.
    expect((await system.request('GET', path())).body).toMatchObject({ onboarding: nested(10) });

    await system.restart(['auth-methods']);
    expect((await fetch(`${system.baseUrl}/readyz`)).status).toBe(200);
    await expect(tokenStatus(key)).resolves.toBe(401);
    expect((await system.request('GET', path())).body).toMatchObject({ onboarding: nested(10) });
  });

  async function tokenStatus(key: ApiKey): Promise<number> {
    const response = await fetch(`${system.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }),
    });
    return response.status;
  }

  function revokeApiKey(clientId: string): void {
    const cli = join(repoRoot, 'services/auth-methods/dist/cli/sesame.js');
    const result = spawnSync(process.execPath, [cli, 'api-keys', 'revoke', clientId], { env: system.env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`sesame api-keys revoke failed: ${result.stderr}`);
  }
});
