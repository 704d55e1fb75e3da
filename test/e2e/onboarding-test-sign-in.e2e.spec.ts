import { System } from '../support/system';
import { createOrganization } from '../support/identity-fixtures';
import { inviteAdmin } from '../support/admin-invitations';
import { TestIdp } from '../support/saml-idp';
import { browserGet, idpReceivesAuthnRequest, postToAcs } from '../support/saml-browser';

/** The onboarding page's test sign-in, over HTTP, with samlify as the identity provider. */
describe('IT-admin test sign-in (all processes, real NATS, samlify IdP)', () => {
  let system: System;
  let org: string;
  let idp: TestIdp;
  const post = (path: string, body: unknown) => system.request('POST', path, { token: null, body });
  const returnUrl = () => `${system.baseUrl}/onboarding/admin-invitation`;

  beforeAll(async () => {
    [system, idp] = await Promise.all([System.start(), TestIdp.create()]);
    org = await createOrganization(system, 'Test Sign-in Org');
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('needs the identity provider metadata first', async () => {
    const { token } = await inviteAdmin(system, org, 'early.admin@example.com');
    expect(await post('/api/v2/admin-invitations/sso/test', { token, return_url: returnUrl() })).toMatchObject({
      status: 404,
      body: { error: { type: 'resource_not_found' } },
    });
  });

  it('signs in at the IdP, comes back to the page and shows what the IdP sent; no user is created', async () => {
    const { token } = await inviteAdmin(system, org, 'tester.admin@example.com');
    const saved = await system.request('PUT', '/api/v2/admin-invitations/sso/connection', {
      token: null,
      body: { token, provider_type: 'custom_saml', metadata: idp.metadata() },
    });
    expect(saved.status).toBe(200);
    const sp = saved.body.saml_config;
    const spMetadata = (await browserGet(sp.cryptr_metadata_url)).body;

    const started = await post('/api/v2/admin-invitations/sso/test', { token, return_url: returnUrl() });
    expect(started).toMatchObject({
      status: 200,
      body: { request_id: expect.any(String), authorization_url: expect.any(String) },
    });
    const { request_id, authorization_url } = started.body;
    expect((await post('/api/v2/admin-invitations/sso/test-result', { token, request_id })).body.status).toBe('pending');

    const request = await idpReceivesAuthnRequest(idp, (await browserGet(authorization_url)).location as string, spMetadata);
    const tess = 'tess@test-sign-in.example';
    const landing = await postToAcs(
      sp.acs_url,
      idp.loginResponse(sp, { nameId: tess, inResponseTo: request.id, attributes: { firstName: 'Tess', department: 'IT' } }),
      request.relayState ?? undefined,
    );
    expect(landing).toMatchObject({ status: 302, location: `${returnUrl()}?request_id=${request_id}&sso_test=success` });
    expect(await post('/api/v2/admin-invitations/sso/test-result', { token, request_id })).toMatchObject({
      status: 200,
      body: {
        status: 'succeeded',
        name_id: tess,
        email: tess,
        attributes: { firstName: ['Tess'], department: ['IT'] },
        profile: { given_name: 'Tess' },
        reason: null,
      },
    });
    expect((await system.request('GET', `/api/v2/org/${org}/users/${tess}`)).status).toBe(404);
  });

  it('refuses a return address outside Sesame, an unknown test, and a token that cannot be used', async () => {
    const { token } = await inviteAdmin(system, org, 'careful.admin@example.com');
    expect(await post('/api/v2/admin-invitations/sso/test', { token, return_url: 'https://evil.example.com/x' })).toMatchObject({
      status: 422,
      body: { errors: { return_url: ['must be a page of Sesame'] } },
    });
    expect(await post('/api/v2/admin-invitations/sso/test', { token, return_url: 'javascript:alert(1)' })).toMatchObject({
      status: 422,
      body: { errors: { return_url: [expect.any(String)] } },
    });
    expect(
      await post('/api/v2/admin-invitations/sso/test-result', { token, request_id: '00000000-0000-4000-8000-000000000000' }),
    ).toMatchObject({ status: 404, body: { error: { type: 'resource_not_found' } } });
    expect((await post('/api/v2/admin-invitations/decline', { token })).status).toBe(200);
    expect(await post('/api/v2/admin-invitations/sso/test', { token, return_url: returnUrl() })).toMatchObject({
      status: 422,
      body: { errors: { token: ['has been declined: ask to be invited again'] } },
    });
  });
});
