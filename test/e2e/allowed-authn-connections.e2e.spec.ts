import * as OTPAuth from 'otpauth';
import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';
import { createOrganization } from '../support/identity-fixtures';
import { TestIdp } from '../support/saml-idp';
import { browserGet, idpReceivesAuthnRequest, postToAcs } from '../support/saml-browser';

const callback = 'https://app.gatekeeper.example/callback';
const passphrase = 'correct horse battery staple 42';
const notAllowed = {
  status: 403,
  body: {
    error: {
      type: 'authn_connection_not_allowed',
      message: "This sign-in method is not in the organization's allowed_authn_connections",
      doc_urls: ['http://localhost:8000/single-sign-on#sign-in-methods-allowed-per-organization'],
    },
  },
};
const ssoNotAllowedMessage = 'This organization does not allow signing in with single sign-on.';
type Method = 'sso' | 'password' | 'magic_link' | 'totp';

/**
 * An organization's `allowed_authn_connections`, enforced for every sign-in method through the
 * real processes: a method it does not list answers 403 `authn_connection_not_allowed` (the SAML
 * ACS, a browser endpoint, sends the user back with `access_denied`) and changes nothing; an empty
 * list allows none.
 */
describe('allowed_authn_connections (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  let idp: TestIdp;
  let sp: { entity_id: string; acs_url: string };
  let spMetadata: string;
  let ada: { id: string; email: string };
  let authenticator: OTPAuth.TOTP;
  const domain = 'gatekeeper-authn.test';

  const allow = async (methods: Method[]) => {
    const updated = await system.request('PUT', `/api/v2/organizations/${org}`, { body: { allowed_authn_connections: methods } });
    expect(updated).toMatchObject({ status: 200, body: { allowed_authn_connections: methods } });
  };
  const post = (path: string, body: Record<string, unknown>) => system.request('POST', path, { body });
  const outbox = async (to: string) =>
    (await system.request('GET', `/dev/outbox?to=${encodeURIComponent(to)}`, { token: null })).body.data as unknown[];
  const userStatus = async (email: string) => (await system.request('GET', `/api/v2/org/${org}/users/${email}`)).status;
  const params = (location: string | null) => Object.fromEntries(new URL(location as string).searchParams.entries());

  const passwordChallenge = (plain_text = passphrase) =>
    post('/api/v2/password-challenge', { org_domain: org, user_email: ada.email, plain_text });
  const passwordRequest = (user_email: string, find_or_create_user = false) =>
    post('/api/v2/password-request', { org_domain: org, user_email, redirect_uri: callback, find_or_create_user });
  const magicLink = (email: string, find_or_create_user = false) =>
    post('/api/v2/magic-link-challenge', { org_domain: org, email, redirect_uri: callback, find_or_create_user });
  const ssoChallenge = (by: Record<string, string> = { org_domain: org }) =>
    post('/api/v2/sso-saml-challenge', { redirect_uri: callback, ...by });
  const totpChallenge = () => system.request('POST', `/api/v2/org/${org}/totp-challenge/${ada.id}`);
  const totpValidation = () =>
    system.request('PUT', `/api/v2/org/${org}/totp-challenge/validation/${ada.id}`, { body: { code: authenticator.generate() } });
  /** A challenge, then the browser at the IdP: the AuthnRequest id and RelayState the IdP answers. */
  const startSsoSignIn = async () => {
    const started = await ssoChallenge();
    expect(started.status).toBe(201);
    const hop = await browserGet(started.body.authorization_url);
    const request = await idpReceivesAuthnRequest(idp, hop.location as string, spMetadata);
    return {
      requestId: started.body.request_id as string,
      inResponseTo: request.id,
      relayState: request.relayState ?? undefined,
    };
  };

  beforeAll(async () => {
    system = await sharedSystem();
    org = await createOrganization(system, 'Gatekeeper Authn', { allowed_email_domains: [domain] });
    expect((await post('/api/v2/redirect_uris', { url: callback })).status).toBe(201);
    const user = await post(`/api/v2/org/${org}/users`, { email: `ada@${domain}` });
    ada = { id: user.body.id, email: user.body.email };
    expect((await post('/api/v2/password', { org_domain: org, user_email: ada.email, plain_text: passphrase })).status).toBe(201);
    expect((await post(`/api/v2/org/${org}/magic-link-connection`, {})).status).toBe(201);
    expect((await system.request('PUT', `/api/v2/org/${org}/totp-connection`, { body: { active: true } })).status).toBe(200);
    const enrolled = await post(`/api/v2/org/${org}/totp-enrollment/${ada.id}`, {});
    authenticator = OTPAuth.URI.parse(enrolled.body.uri) as OTPAuth.TOTP;
    const validation = `/api/v2/org/${org}/totp-enrollment/validation/${ada.id}?code=${authenticator.generate()}`;
    expect((await system.request('PUT', validation)).status).toBe(200);
    idp = await TestIdp.create();
    const connection = await post(`/api/v2/org/${org}/sso-connection`, {
      provider_type: 'okta',
      metadata: idp.metadata(),
      allow_idp_initiated: true,
    });
    expect(connection.status).toBe(201);
    sp = { entity_id: connection.body.saml_config.entity_id, acs_url: connection.body.saml_config.acs_url };
    spMetadata = await (await fetch(connection.body.saml_config.cryptr_metadata_url)).text();
  });

  it('is created with every method allowed', async () => {
    expect((await system.request('GET', `/api/v2/organizations/${org}`)).body.allowed_authn_connections).toEqual([
      'sso',
      'password',
      'magic_link',
      'totp',
    ]);
  });

  it('password: the challenge is refused, right password or wrong, and counts no failure', async () => {
    await allow(['sso', 'magic_link', 'totp']);
    expect(await passwordChallenge()).toMatchObject(notAllowed);
    for (let n = 0; n < 4; n++) expect(await passwordChallenge('wrong password')).toMatchObject(notAllowed);
    await allow(['password']);
    // Four refused wrong attempts would have delayed this one (three failures delay the next attempt).
    expect(await passwordChallenge()).toMatchObject({ status: 200, body: { 'valid?': true, code: expect.any(String) } });
  });

  it('password: a reset request is refused and sends nothing, creates nobody; a reset code issued before is refused unused', async () => {
    await allow(['password']);
    const issued = await passwordRequest(ada.email);
    expect(issued.status).toBe(201);
    const passwordCode = new URL(issued.body.magic_link).searchParams.get('password_code') as string;
    const sent = (await outbox(ada.email)).length;

    await allow(['sso']);
    expect(await passwordRequest(ada.email)).toMatchObject(notAllowed);
    expect(await outbox(ada.email)).toHaveLength(sent);
    expect(await passwordRequest(`newcomer@${domain}`, true)).toMatchObject(notAllowed);
    expect(await userStatus(`newcomer@${domain}`)).toBe(404);
    const setWithCode = () => post('/api/v2/password', { password_code: passwordCode, plain_text: 'a brand new passphrase 77' });
    expect(await setWithCode()).toMatchObject(notAllowed);

    await allow(['password']);
    expect(await setWithCode()).toMatchObject({ status: 201, body: { user_id: ada.id, code: expect.any(String) } });
  });

  it('magic link: the challenge is refused, sends no email and creates nobody', async () => {
    await allow(['sso', 'password']);
    const sent = (await outbox(ada.email)).length;
    expect(await magicLink(ada.email)).toMatchObject(notAllowed);
    expect(await magicLink(`walk-in@${domain}`, true)).toMatchObject(notAllowed);
    expect(await outbox(ada.email)).toHaveLength(sent);
    expect(await userStatus(`walk-in@${domain}`)).toBe(404);
    await allow(['magic_link']);
    expect(await magicLink(ada.email)).toMatchObject({ status: 201, body: { code: expect.any(String) } });
  });

  it('TOTP: challenges and their validation are refused when totp is not allowed', async () => {
    await allow(['sso', 'password', 'magic_link']);
    expect(await totpChallenge()).toMatchObject(notAllowed);
    expect(await totpValidation()).toMatchObject(notAllowed);
    await allow(['password', 'totp']);
    expect(await totpChallenge()).toMatchObject({ status: 201, body: { success: false } });
  });

  it('SSO: the challenge is refused, by org_domain or by user_email', async () => {
    await allow(['password']);
    expect(await ssoChallenge()).toMatchObject(notAllowed);
    expect(await ssoChallenge({ user_email: ada.email })).toMatchObject(notAllowed);
    await allow(['sso']);
    expect(await ssoChallenge({ user_email: ada.email })).toMatchObject({ status: 201 });
  });

  it('SSO: the ACS refuses an SP-initiated sign-in started while allowed, and an IdP-initiated one, provisioning nobody', async () => {
    await allow(['sso']);
    const { requestId, inResponseTo, relayState } = await startSsoSignIn();
    await allow(['password', 'magic_link']);
    const grace = `grace@${domain}`;
    const spInitiated = await postToAcs(sp.acs_url, idp.loginResponse(sp, { nameId: grace, inResponseTo }), relayState);
    expect(spInitiated.status).toBe(302);
    expect(params(spInitiated.location)).toEqual({
      error: 'access_denied',
      error_description: ssoNotAllowedMessage,
      request_id: requestId,
    });
    const idpInitiated = await postToAcs(sp.acs_url, idp.loginResponse(sp, { nameId: grace }));
    expect(params(idpInitiated.location)).toEqual({ error: 'access_denied', error_description: ssoNotAllowedMessage });
    expect(await userStatus(grace)).toBe(404);

    await allow(['sso']);
    const allowed = await postToAcs(sp.acs_url, idp.loginResponse(sp, { nameId: grace }));
    expect(params(allowed.location)).toEqual({ code: expect.any(String), request_id: expect.any(String) });
    expect(await userStatus(grace)).toBe(200);
  });

  it('an empty list allows no sign-in at all', async () => {
    await allow([]);
    expect(await passwordChallenge()).toMatchObject(notAllowed);
    expect(await passwordRequest(ada.email)).toMatchObject(notAllowed);
    expect(await magicLink(ada.email)).toMatchObject(notAllowed);
    expect(await totpChallenge()).toMatchObject(notAllowed);
    expect(await ssoChallenge()).toMatchObject(notAllowed);
    const idpInitiated = await postToAcs(sp.acs_url, idp.loginResponse(sp, { nameId: ada.email }));
    expect(params(idpInitiated.location)).toMatchObject({ error: 'access_denied', error_description: ssoNotAllowedMessage });
  });
});
