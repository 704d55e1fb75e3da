import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { subjects } from '@sesame/contracts';
import type { RpcReply } from '@sesame/contracts';
import { RpcClient } from '@sesame/platform/messaging';
import { join } from 'node:path';
import { createKeyAndCertificate } from '../../services/auth-methods/src/methods/sso-saml/crypto/sp-key';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, notFound, unauthorized } from '../support/identity-fixtures';

const fixtures = join(__dirname, '../../services/auth-methods/src/methods/sso-saml/metadata/fixtures');
const okta = readFileSync(join(fixtures, 'okta.xml'), 'utf8');
const azure = readFileSync(join(fixtures, 'azure-ad.xml'), 'utf8');
const day = 86_400_000;

const metadataWith = (pems: string[]) =>
  `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://idp.example.com"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${pems
    .map(
      (pem) =>
        `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${pem.replace(/-----[A-Z ]+-----/g, '')}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
    )
    .join(
      '',
    )}<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.com/sso"/></md:IDPSSODescriptor></md:EntityDescriptor>`;

describe('SSO connections over HTTP (all processes, real NATS)', () => {
  let system: System;
  let production: ApiKey;
  let acme: string;
  let globex: string;
  const path = (domain: string) => `/api/v2/org/${domain}/sso-connection`;

  beforeAll(async () => {
    system = await System.start();
    production = system.createApiKey('production');
    acme = await createOrganization(system, 'Acme SSO', { allowed_email_domains: ['acme-sso.com'] });
    globex = await createOrganization(system, 'Globex SSO');
  });
  afterAll(async () => {
    await rpc?.close();
    await system?.stop();
  });
  let rpc: RpcClient;
  const call = (subject: string, input: unknown): Promise<RpcReply<any>> =>
    rpc.request(subject, { meta: { correlationId: randomUUID() }, input });

  it('creates the connection of an organization with the defaults and our SP values', async () => {
    const { status, body } = await system.request('POST', path(acme), { body: { provider_type: 'okta' } });
    expect(status).toBe(201);
    const base = `${system.baseUrl}/sso/saml/${acme}_sandbox`;
    expect(body).toEqual({
      __type__: 'SsoConnection',
      __domain__: acme,
      __environment__: 'sandbox',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sp_id: `${acme}_sandbox`,
      type: 'saml',
      active: true,
      organization: acme,
      provider_type: 'okta',
      number_users_provisioning_limit: null,
      users_access_policy: 'provision_new_users',
      onboarding: null,
      metadata: null,
      identity_provider: null,
      saml_config: {
        acs_url: `${base}/acs`,
        entity_id: `${base}/metadata`,
        cryptr_metadata_url: `${base}/metadata`,
        slo_url: `${base}/slo`,
        slo_response_url: `${base}/slo/response`,
        sso_provider_metadata: null,
      },
      oidc_config: null,
      update_profile_only_at_creation: false,
      allow_idp_initiated: false,
      inserted_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await system.request('GET', path(acme))).body).toEqual(body);
  });

  it('refuses a second connection (409), an unknown organization (404), a missing key (401)', async () => {
    expect(await system.request('POST', path(acme), { body: {} })).toMatchObject({
      status: 409,
      body: { error: { type: 'sso_connection_already_exists', message: 'An SSO connection already exists' } },
    });
    expect(await system.request('POST', path('nobody-here'), { body: {} })).toMatchObject({ status: 404, body: notFound });
    expect(await system.request('GET', path(globex))).toMatchObject({ status: 404, body: notFound });
    expect(await system.request('PUT', path(globex), { body: { active: false } })).toMatchObject({ status: 404, body: notFound });
    expect(await system.request('GET', path(acme), { token: null })).toMatchObject({ status: 401, body: unauthorized });
  });

  it('reads the IdP metadata given with PUT (form fields too): entity id, SSO URL, several signing certificates', async () => {
    const form = `metadata=${encodeURIComponent(azure)}&users_access_policy=only_registered_users&number_users_provisioning_limit=99&allow_idp_initiated=true`;
    const { status, body } = await system.request('PUT', path(acme), { form });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      metadata: azure,
      users_access_policy: 'only_registered_users',
      number_users_provisioning_limit: 99,
      allow_idp_initiated: true,
      identity_provider: {
        entity_id: 'https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/',
        sso_url: 'https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/saml2',
      },
      saml_config: { sso_provider_metadata: 'https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/' },
    });
    expect(body.identity_provider.certificates).toHaveLength(2);
    expect(JSON.stringify(body)).not.toContain('PRIVATE KEY');
  });

  it.each([
    ['invalid XML', '<md:EntityDescriptor', expect.stringMatching(/^is not valid XML \(.+\)$/)],
    ['a DOCTYPE', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', 'must not contain a DOCTYPE'],
    ['no signing certificate', metadataWith([]), 'has no signing certificate'],
  ])('refuses metadata with %s (422 on metadata)', async (_case, metadata, message) => {
    expect(await system.request('PUT', path(acme), { body: { metadata } })).toEqual(
      expect.objectContaining({ status: 422, body: { errors: { metadata: [message] } } }),
    );
  });

  it('refuses metadata with an expired signing certificate and an unknown users_access_policy', async () => {
    const notAfter = new Date(Math.floor((Date.now() - day) / 1000) * 1000);
    const expired = await createKeyAndCertificate('expired', { notBefore: new Date(Date.now() - 400 * day), notAfter });
    expect(await system.request('PUT', path(acme), { body: { metadata: metadataWith([expired.certificatePem]) } })).toMatchObject(
      {
        status: 422,
        body: { errors: { metadata: [`has an expired signing certificate (not valid after ${notAfter.toISOString()})`] } },
      },
    );
    const policy = await system.request('PUT', path(acme), { body: { users_access_policy: 'everyone' } });
    expect(policy.status).toBe(422);
    expect(Object.keys(policy.body.errors)).toEqual(['users_access_policy']);
  });

  it('serves our SP metadata publicly at cryptr_metadata_url', async () => {
    const { body: connection } = await system.request('GET', path(acme));
    const response = await fetch(connection.saml_config.cryptr_metadata_url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await response.text();
    expect(xml).toContain(`entityID="${connection.saml_config.entity_id}"`);
    expect(xml).toContain(`Location="${connection.saml_config.acs_url}"`);
    expect(xml).toContain('AuthnRequestsSigned="true"');
    expect(xml).toMatch(/<ds:X509Certificate>[A-Za-z0-9+/=\s]+<\/ds:X509Certificate>/);
    expect((await system.request('GET', `/sso/saml/${globex}_sandbox/metadata`, { token: null })).status).toBe(404);
  });

  it('lists the connections of the environment with paging, apart from the other environment', async () => {
    await system.request('POST', path(globex), { body: { metadata: okta, provider_type: 'okta' } });
    const page = await system.request('GET', '/api/v2/sso-connections?per_page=1&page=2');
    expect(page.status).toBe(200);
    expect(page.body.data.map((item: { organization: string }) => item.organization)).toEqual([globex]);
    expect(page.body.pagination).toEqual({
      current_page: 2,
      current_pages: 2,
      next_page: null,
      prev_page: 1,
      per_page: 1,
      total_pages: 2,
    });
    expect(page.body.total).toBe(2);
    expect((await system.request('GET', '/api/v2/sso-connections', { key: production })).body.total).toBe(0);
    expect(await system.request('GET', path(acme), { key: production })).toMatchObject({ status: 404 });
  });

  it('serves the onboarding page through service subjects: SP values, find, configure (create then update)', async () => {
    rpc = await RpcClient.connect({
      nats: system.natsOptions('test-peer'),
      prefix: system.prefix,
      timeoutMs: 10_000,
    });
    const initech = await createOrganization(system, 'Initech SSO', {}, production);
    const scope = { organization_domain: initech, environment: 'production' as const };
    // The organization belongs to production: sandbox has none of this domain.
    expect(
      await call(subjects.authMethods.sso.configure, { ...scope, environment: 'sandbox', provider_type: 'okta', metadata: okta }),
    ).toEqual({
      ok: false,
      error: { kind: 'error', code: 'resource_not_found' },
    });
    const settings = await call(subjects.authMethods.sso.spSettings, scope);
    expect(settings).toMatchObject({
      ok: true,
      body: { sp_id: `${initech}_production`, saml_config: { acs_url: `${system.baseUrl}/sso/saml/${initech}_production/acs` } },
    });
    expect(await call(subjects.authMethods.sso.find, scope)).toMatchObject({ ok: true, body: { sso_connection: null } });
    const createdReply = await call(subjects.authMethods.sso.configure, { ...scope, provider_type: 'okta', metadata: okta });
    expect(createdReply).toMatchObject({ ok: true, body: { sp_id: `${initech}_production`, provider_type: 'okta' } });
    const updated = await call(subjects.authMethods.sso.configure, {
      ...scope,
      users_access_policy: 'unregistered_users_allowed',
    });
    expect(updated).toMatchObject({
      ok: true,
      body: { id: createdReply.ok && createdReply.body.id, users_access_policy: 'unregistered_users_allowed' },
    });
    expect(await call(subjects.authMethods.sso.find, scope)).toMatchObject({
      ok: true,
      body: { sso_connection: { provider_type: 'okta' } },
    });
    expect(await call(subjects.authMethods.sso.configure, { ...scope, metadata: 'nope' })).toMatchObject({
      ok: false,
      error: { kind: 'fields', fields: { metadata: [expect.stringMatching(/^is not valid XML/)] } },
    });
    expect(await call(subjects.authMethods.sso.configure, { ...scope, organization_domain: 'nobody-here' })).toMatchObject({
      ok: false,
      error: { kind: 'error', code: 'resource_not_found' },
    });
    expect((await system.request('GET', path(initech), { key: production })).body.users_access_policy).toBe(
      'unregistered_users_allowed',
    );
  });
});
