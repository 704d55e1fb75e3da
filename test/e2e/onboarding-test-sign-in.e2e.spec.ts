import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';
import { createOrganization } from '../support/identity-fixtures';
import { onboardingCall, onboardingSession } from '../support/admin-invitations';
import { TestIdp } from '../support/saml-idp';
import { browserGet, idpReceivesAuthnRequest, postToAcs } from '../support/saml-browser';

/** The onboarding page's test sign-in, over HTTP, with samlify as the identity provider. */
describe('IT-admin test sign-in (all processes, real NATS, samlify IdP)', () => {
  let system: System;
  let org: string;
  let idp: TestIdp;
  const post = (path: string, session: string, body: unknown = {}) => onboardingCall(system, 'POST', path, session, body);
  const returnUrl = () => `${system.baseUrl}/onboarding/admin-invitation`;

  beforeAll(async () => {
    [system, idp] = await Promise.all([sharedSystem(), TestIdp.create()]);
    org = await createOrganization(system, 'Test Sign-in Org');
  });

  it('needs the identity provider metadata first', async () => {
    const session = await onboardingSession(system, org, 'early.admin@example.com');
    expect(await post('sso/test', session, { return_url: returnUrl() })).toMatchObject({
      status: 404,
      body: { error: { type: 'resource_not_found' } },
    });
  });

  it('signs in at the IdP, comes back to the page and shows what the IdP sent; no user is created', async () => {
    const session = await onboardingSession(system, org, 'tester.admin@example.com');
    const saved = await onboardingCall(system, 'PUT', 'sso/connection', session, {
      provider_type: 'custom_saml',
      metadata: idp.metadata(),
    });
    expect(saved.status).toBe(200);
    const sp = saved.body.saml_config;
    const spMetadata = (await browserGet(sp.cryptr_metadata_url)).body;

    const started = await post('sso/test', session, { return_url: returnUrl() });
    expect(started).toMatchObject({
      status: 200,
      body: { request_id: expect.any(String), authorization_url: expect.any(String) },
    });
    const { request_id, authorization_url } = started.body;
    expect((await post('sso/test-result', session, { request_id })).body.status).toBe('pending');

    const request = await idpReceivesAuthnRequest(idp, (await browserGet(authorization_url)).location as string, spMetadata);
    const tess = 'tess@test-sign-in.example';
    const landing = await postToAcs(
      sp.acs_url,
      idp.loginResponse(sp, { nameId: tess, inResponseTo: request.id, attributes: { firstName: 'Tess', department: 'IT' } }),
      request.relayState ?? undefined,
    );
    expect(landing).toMatchObject({ status: 302, location: `${returnUrl()}?request_id=${request_id}&sso_test=success` });
    expect(await post('sso/test-result', session, { request_id })).toMatchObject({
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

  it('refuses a return address outside Sesame, an unknown test, and a session that ended', async () => {
    const session = await onboardingSession(system, org, 'careful.admin@example.com');
    expect(await post('sso/test', session, { return_url: 'https://evil.example.com/x' })).toMatchObject({
      status: 422,
      body: { errors: { return_url: ['must be a page of Sesame'] } },
    });
    expect(await post('sso/test', session, { return_url: 'javascript:alert(1)' })).toMatchObject({
      status: 422,
      body: { errors: { return_url: [expect.any(String)] } },
    });
    expect(await post('sso/test-result', session, { request_id: '00000000-0000-4000-8000-000000000000' })).toMatchObject({
      status: 404,
      body: { error: { type: 'resource_not_found' } },
    });
    expect((await post('decline', session)).status).toBe(200);
    expect(await post('sso/test', session, { return_url: returnUrl() })).toMatchObject({
      status: 401,
      body: {
        error: {
          type: 'onboarding_session_required',
          message: 'Your onboarding session has ended: ask for a new invitation link',
        },
      },
    });
  });
});
