import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { System } from '../support/system';
import { createOrganization, eventually } from '../support/identity-fixtures';
import { logLinesWith } from '../support/process-logs';
import { OtlpReceiver } from '../support/otlp-receiver';
import type { ReceivedSpan } from '../support/otlp-receiver';
import { WebhookReceiver } from '../support/webhook-receiver';

const server = 2;
const client = 3;
const consumer = 5;

/** A caller's W3C trace context: the trace the request must continue, and the caller's span id. */
const callerContext = () => {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceId, parentId, headers: { traceparent: `00-${traceId}-${parentId}-01` } };
};

/** Spans whose parent is not in the trace: only the gateway's request span, once every process exported its spans. */
const rootsOf = (spans: ReceivedSpan[]) => {
  const ids = new Set(spans.map((span) => span.spanId));
  return spans.filter((span) => !span.parentSpanId || !ids.has(span.parentSpanId));
};

/**
 * Waits until the trace is one tree holding what `complete` looks for (processes export in batches,
 * a child may arrive before its parent), then checks the tree: the gateway's request span is the
 * only child of the caller's span, and every other span has its parent in the trace.
 */
async function completeTrace(
  otlp: OtlpReceiver,
  caller: { traceId: string; parentId: string },
  complete: (spans: ReceivedSpan[]) => boolean,
) {
  const spans = () => otlp.trace(caller.traceId);
  const roots = () => rootsOf(spans()).map((span) => ({ service: span.service, kind: span.kind, parent: span.parentSpanId }));
  const expected = [{ service: 'sesame-gateway', kind: server, parent: caller.parentId }];
  await eventually(async () => complete(spans()) && JSON.stringify(roots()) === JSON.stringify(expected), 30_000).catch(
    () => undefined,
  );
  expect(roots()).toEqual(expected);
  expect(complete(spans())).toBe(true);
  return spans();
}

const parentOf = (spans: ReceivedSpan[], span: ReceivedSpan) => spans.find((candidate) => candidate.spanId === span.parentSpanId);

describe('Tracing: one request is one trace, from the gateway through NATS into consumers (all processes, real NATS, real OTLP receiver)', () => {
  let system: System;
  let otlp: OtlpReceiver;
  let webhooks: WebhookReceiver;
  let smtp: SMTPServer;
  const mailed: string[] = [];
  let org: string;
  const emailDomain = `traced-${randomUUID().slice(0, 8)}.example.com`;
  const plain_text = 'correct horse battery staple 42';

  beforeAll(async () => {
    otlp = await OtlpReceiver.start();
    webhooks = await WebhookReceiver.start();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        mailed.push(session.envelope.rcptTo[0]?.address ?? '');
        stream.on('data', () => undefined).on('end', () => done());
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    system = await System.start({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        SESAME_MAIL_TRANSPORT: 'smtp',
        SESAME_SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      },
      processEnv: { webhooks: { SESAME_WEBHOOK_POLL_MS: '100' } },
    });
    org = await createOrganization(system, `Traced ${emailDomain}`, { allowed_email_domains: [emailDomain] });
    const webhook = await system.request('POST', '/api/v2/webhooks', {
      body: { name: 'traced', event_codes: ['user.created'], target_url: `${webhooks.url}/traced` },
    });
    expect(webhook.status).toBe(201);
  });
  afterAll(async () => {
    await system?.stop();
    await otlp?.stop();
    await webhooks?.stop();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  it('follows a password sign-in: gateway, auth-methods, identity over NATS, and the webhooks feed that consumed its commits', async () => {
    const user_email = `ada@${emailDomain}`;
    const created = await system.request('POST', '/api/v2/password', { body: { org_domain: org, user_email, plain_text } });
    expect(created.status).toBe(201);

    const caller = callerContext();
    const signIn = await system.request('POST', '/api/v2/password-challenge', {
      body: { org_domain: org, user_email, plain_text },
      headers: caller.headers,
    });
    expect(signIn.status).toBe(200);

    const reacted = (spans: ReceivedSpan[]) => spans.some((span) => span.name === 'react webhooks-from-auth-methods');
    const trace = await completeTrace(otlp, caller, reacted);
    const spans = () => trace;
    const request = spans().find((span) => span.kind === server && span.service === 'sesame-gateway');
    expect(request).toMatchObject({
      name: 'POST /api/v2/password-challenge',
      attributes: { 'http.route': '/api/v2/password-challenge', 'http.request.method': 'POST', 'http.response.status_code': 200 },
    });
    // The gateway asks auth-methods over NATS; auth-methods asks identity: each server span's parent is the caller's client span.
    const servers = spans().filter((span) => span.kind === server && span.service !== 'sesame-gateway');
    expect(new Set(servers.map((span) => span.service))).toEqual(new Set(['sesame-auth-methods', 'sesame-identity']));
    for (const span of servers) {
      const parent = parentOf(spans(), span);
      expect({ kind: parent?.kind, method: parent?.attributes['rpc.method'] }).toEqual({ kind: client, method: span.name });
    }
    const reaction = spans().find((span) => span.name === 'react webhooks-from-auth-methods');
    expect(reaction).toMatchObject({ kind: consumer, service: 'sesame-webhooks' });
    expect(parentOf(spans(), reaction as ReceivedSpan)?.service).toBe('sesame-auth-methods');
  });

  it('follows a SCIM push: gateway, directory-sync, identity, the webhooks feed, and the webhook delivery it caused', async () => {
    const { body } = await system.request('POST', `/api/v2/org/${org}/directory-sync`, { body: { provider_type: 'okta' } });
    const base = new URL(body.scim_base_url).pathname;
    const scimToken = body.auth_secret_token.value as string;
    const caller = callerContext();
    const userName = `lin@${emailDomain}`;
    const pushed = await system.request('POST', `${base}/Users`, {
      token: scimToken,
      headers: { 'content-type': 'application/scim+json', ...caller.headers },
      body: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName,
        emails: [{ value: userName, primary: true }],
        active: true,
      },
    });
    expect(pushed.status).toBe(201);

    const trace = await completeTrace(otlp, caller, (spans) => spans.some((span) => span.name === 'webhook deliver'));
    const spans = () => trace;
    expect(spans().find((span) => span.kind === server && span.service === 'sesame-gateway')?.attributes['http.route']).toMatch(
      /\/Users$/,
    );
    const services = new Set(spans().map((span) => span.service));
    for (const service of ['sesame-gateway', 'sesame-directory-sync', 'sesame-identity', 'sesame-webhooks'])
      expect(services).toContain(service);
    // The delivery continues the trace of the commit that created the user, through the stored job.
    const delivery = spans().find((span) => span.name === 'webhook deliver') as ReceivedSpan;
    expect(delivery).toMatchObject({ service: 'sesame-webhooks', kind: client });
    const reaction = parentOf(spans(), delivery);
    expect(reaction).toMatchObject({ kind: consumer, name: 'react webhooks-from-identity' });
    expect(webhooks.to('/traced').length).toBeGreaterThan(0);
  });

  it('follows a magic-link challenge into the mail queue: the delivery to the SMTP server continues its trace', async () => {
    const callback = 'https://app.traced.example/auth/callback';
    expect((await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } })).status).toBe(201);
    expect((await system.request('POST', `/api/v2/org/${org}/magic-link-connection`, { body: {} })).status).toBe(201);
    const email = `gavin@${emailDomain}`;
    expect((await system.request('POST', `/api/v2/org/${org}/users`, { body: { email } })).status).toBe(201);
    const caller = callerContext();
    const challenge = await system.request('POST', '/api/v2/magic-link-challenge', {
      body: { email, redirect_uri: callback },
      headers: caller.headers,
    });
    expect(challenge.status).toBe(201);

    const spans = await completeTrace(otlp, caller, (trace) => trace.some((span) => span.name === 'mail deliver'));
    const delivery = spans.find((span) => span.name === 'mail deliver') as ReceivedSpan;
    // Whichever process with a mailer took it from the shared queue, it continues the span that queued it.
    expect(delivery.kind).toBe(consumer);
    expect(parentOf(spans, delivery)).toMatchObject({
      service: 'sesame-auth-methods',
      name: 'auth-methods.magic-link.challenge.create',
    });
    expect(mailed).toContain(email);
  });

  it('starts a trace for a request that carries none, and the access log names it', async () => {
    const correlationId = `traced-${randomUUID()}`;
    const answer = await system.request('GET', `/api/v2/organizations/${org}`, {
      headers: { 'x-correlation-id': correlationId },
    });
    expect(answer.status).toBe(200);
    const [line] = await logLinesWith(system, correlationId);
    expect(line).toMatchObject({ msg: 'request', correlationId, traceId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const request = () => otlp.trace(line?.traceId).find((span) => span.service === 'sesame-gateway' && span.kind === server);
    // Each process exports in its own batches: wait for both ends of the request.
    await eventually(
      async () => request() !== undefined && otlp.trace(line?.traceId).some((span) => span.service === 'sesame-identity'),
      30_000,
    );
    expect(request()).toMatchObject({ name: 'GET /api/v2/organizations/:org_domain', parentSpanId: undefined });
  });

  it('exports no secret: no password, SCIM token, API key secret or email address in any exported span', async () => {
    const exported = otlp.bodies.join('\n');
    expect(exported.length).toBeGreaterThan(0);
    for (const secret of [plain_text, system.apiKey.clientSecret, emailDomain]) expect(exported).not.toContain(secret);
    expect(exported).not.toMatch(/Bearer /i);
  });
});
