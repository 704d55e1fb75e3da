import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { subjects } from '@sesame/contracts';
import type { RpcReply } from '@sesame/contracts';
import { RpcClient } from '@sesame/platform/messaging';
import { join } from 'node:path';
import { createKeyAndCertificate } from '../../services/auth-methods/src/methods/sso-saml/crypto/sp-key';
import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';
import { createOrganization, eventually } from '../support/identity-fixtures';
import { encryptAssertion, TestIdp } from '../support/saml-idp';
import type { LoginResponseOptions } from '../support/saml-idp';
import { browserGet, idpReceivesAuthnRequest, postToAcs, redirectBindingRequest, spEntityOf } from '../support/saml-browser';

const callback = 'https://app.example.com/callback';

/**
 * SAML sign-in against a real identity provider (samlify with its own keys), through the real
 * processes: SP-initiated (challenge, signed AuthnRequest, ACS, code), IdP-initiated, and the
 * attacks, each refused with its reason (shown to the user, logged for the operator).
 */
describe('SAML SSO sign-in (all processes, samlify as the IdP)', () => {
  let system: System;
  let idp: TestIdp;
  let org: string;
  let connection: { id: string; saml_config: { acs_url: string; entity_id: string; cryptr_metadata_url: string } };
  let sp: { entity_id: string; acs_url: string };
  let spMetadata: string;
  const email = 'ada@acme-saml.test';

  beforeAll(async () => {
    system = await sharedSystem();
    org = await createOrganization(system, 'Acme SAML', { allowed_email_domains: ['acme-saml.test'] });
    await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } });
    idp = await TestIdp.create();
    const created = await system.request('POST', `/api/v2/org/${org}/sso-connection`, {
      body: { provider_type: 'okta', metadata: idp.metadata(), allow_idp_initiated: true },
    });
    expect(created.status).toBe(201);
    connection = created.body;
    sp = { entity_id: connection.saml_config.entity_id, acs_url: connection.saml_config.acs_url };
    spMetadata = await (await fetch(connection.saml_config.cryptr_metadata_url)).text();
  });

  const challenge = async (body: Record<string, unknown> = { user_email: email }) => {
    const { status, body: answer } = await system.request('POST', '/api/v2/sso-saml-challenge', {
      body: { redirect_uri: callback, ...body },
    });
    expect(status).toBe(201);
    return answer as { request_id: string; authorization_url: string };
  };
  /** Challenge, then the browser goes to the IdP: answers the AuthnRequest id and RelayState. */
  const startSignIn = async () => {
    const { request_id, authorization_url } = await challenge();
    const hop = await browserGet(authorization_url);
    expect(hop.status).toBe(302);
    const request = await idpReceivesAuthnRequest(idp, hop.location as string, spMetadata);
    return { request_id, inResponseTo: request.id, relayState: request.relayState };
  };
  /** The operator's log line for this request names the reason. */
  const logged = async (hop: { correlationId: string | null }, reason: string) => {
    const line = `"correlationId":"${hop.correlationId}","reason":"${reason}"`;
    await eventually(async () => readFileSync(join(system.logDir, 'auth-methods.log'), 'utf8').includes(line));
    return true;
  };
  const params = (location: string | null) => Object.fromEntries(new URL(location as string).searchParams.entries());
  /** POST /oauth/token with these form fields, as the client (confidential unless it leaves the secret out). */
  const token = async (fields: Record<string, string>) => {
    const reply = await fetch(`${system.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: system.apiKey.clientId, ...fields }).toString(),
    });
    return { status: reply.status, body: (await reply.json()) as Record<string, string> };
  };

  it('SP-initiated: challenge, signed AuthnRequest to the IdP, response to the ACS, code to the redirect URI', async () => {
    const { request_id, authorization_url } = await challenge();
    expect(authorization_url).toBe(`${system.baseUrl}/sso/saml/${org}_sandbox/authorize?request_id=${request_id}`);
    const hop = await browserGet(authorization_url);
    expect(hop.status).toBe(302);
    expect(hop.location?.startsWith(`${idp.ssoUrl}?`)).toBe(true);
    const request = await idpReceivesAuthnRequest(idp, hop.location as string, spMetadata);
    expect(request).toMatchObject({
      id: `_${request_id}`,
      relayState: request_id,
      sigAlg: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    });

    const response = idp.loginResponse(sp, {
      nameId: email,
      inResponseTo: request.id,
      attributes: { email, firstName: 'Ada', lastName: 'Lovelace' },
    });
    const landing = await postToAcs(sp.acs_url, response, request.relayState ?? undefined);
    expect(landing.status).toBe(302);
    expect(landing.location?.startsWith(`${callback}?`)).toBe(true);
    expect(params(landing.location)).toEqual({ code: expect.stringMatching(/^\S{20,}$/), request_id });

    const user = await system.request('GET', `/api/v2/org/${org}/users/${email}`);
    expect(user.status).toBe(200);
    expect(user.body.profile).toMatchObject({ given_name: 'Ada', family_name: 'Lovelace' });
    expect(user.body.identities).toEqual([expect.objectContaining({ provider: 'saml.okta', idp_id: email })]);

    const tokens = await token({
      grant_type: 'authorization_code',
      code: params(landing.location).code as string,
      client_secret: system.apiKey.clientSecret,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer' });

    // The same response again (the back button, or a stolen response): a replay, on any replica.
    const replay = await postToAcs(sp.acs_url, response, request.relayState ?? undefined);
    expect(replay.status).toBe(400);
    expect(replay.body).toContain('This identity provider response was already used.');
    expect(await logged(replay, 'replay')).toBe(true);
  });

  it('a public client (PKCE): the code of a SAML sign-in is exchanged with client_id and code_verifier, no secret', async () => {
    // A user of its own: the single-logout tests count the open sessions of `email`.
    const user = 'pkce.user@acme-saml.test';
    const verifier = randomBytes(48).toString('base64url');
    const code_challenge = createHash('sha256').update(verifier).digest('base64url');
    const { request_id, authorization_url } = await challenge({
      user_email: email,
      code_challenge,
      code_challenge_method: 'S256',
    });
    const hop = await browserGet(authorization_url);
    const request = await idpReceivesAuthnRequest(idp, hop.location as string, spMetadata);
    const response = idp.loginResponse(sp, { nameId: user, inResponseTo: request.id, attributes: { email: user } });
    const landing = await postToAcs(sp.acs_url, response, request.relayState ?? undefined);
    expect(params(landing.location)).toEqual({ code: expect.any(String), request_id });
    const exchange = (fields: Record<string, string>) =>
      token({ grant_type: 'authorization_code', code: params(landing.location).code as string, ...fields });
    expect(await exchange({})).toEqual({
      status: 400,
      body: {
        error: 'invalid_grant',
        error_description: 'code_verifier is required: the authorization code was issued with a code_challenge',
      },
    });
    expect(await exchange({ code_verifier: randomBytes(48).toString('base64url') })).toEqual({
      status: 400,
      body: {
        error: 'invalid_grant',
        error_description: 'code_verifier does not match the code_challenge of the authorization code',
      },
    });
    const tokens = await exchange({ code_verifier: verifier });
    expect(tokens).toMatchObject({ status: 200, body: { token_type: 'Bearer', id_token: expect.any(String) } });
    const jwks = createRemoteJWKSet(new URL(`${system.baseUrl}/t/${org}/.well-known`));
    const { payload } = await jwtVerify(tokens.body.id_token as string, jwks, {
      issuer: `${system.baseUrl}/t/${org}`,
      audience: system.apiKey.clientId,
    });
    expect(payload).toMatchObject({ email: user, amr: ['sso'] });
  });

  it('IdP-initiated: a response without InResponseTo lands on the default redirect URI with a code', async () => {
    const landing = await postToAcs(
      sp.acs_url,
      idp.loginResponse(sp, { nameId: 'grace@acme-saml.test', attributes: { firstName: 'Grace' } }),
    );
    expect(landing.status).toBe(302);
    expect(landing.location?.startsWith(`${callback}?`)).toBe(true);
    expect(params(landing.location)).toEqual({ code: expect.any(String), request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect((await system.request('GET', `/api/v2/org/${org}/users/grace@acme-saml.test`)).body.identities[0].provider).toBe(
      'saml.okta',
    );
  });

  it('users on login: profile refreshed at each sign-in, unknown users refused or capped as the policy says', async () => {
    const idpInitiated = (nameId: string, attributes: Record<string, string> = {}) =>
      postToAcs(sp.acs_url, idp.loginResponse(sp, { nameId, attributes }));
    await idpInitiated('grace@acme-saml.test', { firstName: 'Grace B.' });
    expect((await system.request('GET', `/api/v2/org/${org}/users/grace@acme-saml.test`)).body.profile.given_name).toBe(
      'Grace B.',
    );

    await system.request('PUT', `/api/v2/org/${org}/sso-connection`, { body: { users_access_policy: 'only_registered_users' } });
    const unknown = await idpInitiated('nobody@acme-saml.test');
    expect(params(unknown.location)).toMatchObject({
      error: 'access_denied',
      error_description: 'Your account is not registered for this application.',
    });
    expect(await logged(unknown, 'user_not_registered')).toBe(true);
    expect((await idpInitiated('grace@acme-saml.test')).location).toContain('code=');

    await system.request('PUT', `/api/v2/org/${org}/sso-connection`, {
      body: { users_access_policy: 'provision_new_users', number_users_provisioning_limit: 2 },
    });
    const capped = await idpInitiated('third@acme-saml.test');
    expect(params(capped.location)).toMatchObject({ error_description: 'No more users can be created for this organization.' });
    expect(await logged(capped, 'provisioning_limit_reached')).toBe(true);
    expect((await system.request('GET', `/api/v2/org/${org}/users/third@acme-saml.test`)).status).toBe(404);
    await system.request('PUT', `/api/v2/org/${org}/sso-connection`, { body: { number_users_provisioning_limit: null } });
  });

  it('unregistered_users_allowed: an unknown user signs in without an account, with tokens from the assertion', async () => {
    await system.request('PUT', `/api/v2/org/${org}/sso-connection`, {
      body: { users_access_policy: 'unregistered_users_allowed' },
    });
    const usersBefore = await system.request('GET', `/api/v2/org/${org}/users`);
    const visitor = 'Visitor@Acme-SAML.test';
    const signIn = async () => {
      const { request_id, inResponseTo, relayState } = await startSignIn();
      const attributes = { email: visitor, firstName: 'Vera', lastName: 'Visitor', department: ['R&D', 'Labs'] };
      const landing = await postToAcs(
        sp.acs_url,
        idp.loginResponse(sp, { nameId: visitor, inResponseTo, attributes }),
        relayState ?? undefined,
      );
      expect(landing.status).toBe(302);
      expect(params(landing.location)).toEqual({ code: expect.any(String), request_id });
      return params(landing.location).code as string;
    };
    const exchange = (fields: Record<string, string>) => token({ client_secret: system.apiKey.clientSecret, ...fields });
    const tokens = await exchange({ grant_type: 'authorization_code', code: await signIn() });
    expect(tokens.status).toBe(200);
    const jwks = createRemoteJWKSet(new URL(`${system.baseUrl}/t/${org}/.well-known`));
    const verified = { issuer: `${system.baseUrl}/t/${org}`, audience: system.apiKey.clientId };
    const { payload: id } = await jwtVerify(tokens.body.id_token as string, jwks, verified);
    expect(id).toMatchObject({
      sub: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      email: 'visitor@acme-saml.test',
      email_verified: true,
      given_name: 'Vera',
      family_name: 'Visitor',
      amr: ['sso'],
      attributes: { email: [visitor], firstName: ['Vera'], lastName: ['Visitor'], department: ['R&D', 'Labs'] },
    });
    const { payload: access } = await jwtVerify(tokens.body.access_token as string, jwks, verified);
    expect(access.sub).toBe(id.sub);

    const refreshed = await exchange({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string });
    expect(refreshed.status).toBe(200);
    expect((await jwtVerify(refreshed.body.id_token as string, jwks, verified)).payload).toMatchObject({
      sub: id.sub,
      email: id.email,
    });

    // The same person again: the same subject id; and nobody was added to the organization.
    const again = await exchange({ grant_type: 'authorization_code', code: await signIn() });
    expect((await jwtVerify(again.body.id_token as string, jwks, verified)).payload.sub).toBe(id.sub);
    expect((await system.request('GET', `/api/v2/org/${org}/users`)).body).toEqual(usersBefore.body);
    expect((await system.request('GET', `/api/v2/org/${org}/users/visitor@acme-saml.test`)).status).toBe(404);
    await system.request('PUT', `/api/v2/org/${org}/sso-connection`, { body: { users_access_policy: 'provision_new_users' } });

    // The connection no longer lets unregistered users in: their sessions end at the next refresh
    // (a refresh that succeeds meanwhile, before the connection's read model caught up, rotates).
    let current = again.body.refresh_token as string;
    let refused: Awaited<ReturnType<typeof exchange>> | undefined;
    await eventually(async () => {
      const reply = await exchange({ grant_type: 'refresh_token', refresh_token: current });
      if (reply.status === 200) current = reply.body.refresh_token as string;
      else refused = reply;
      return reply.status !== 200;
    });
    expect(refused).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The user of this grant no longer exists or is inactive' },
    });
  });

  /** Our SP encryption certificate, as an IdP reads it from our metadata (`<KeyDescriptor use="encryption">`). */
  const spEncryptionCertificate = () => {
    const descriptor = /<KeyDescriptor use="encryption">[\s\S]*?<\/KeyDescriptor>/.exec(spMetadata)?.[0] ?? '';
    const base64 = /<(?:ds:)?X509Certificate>([^<]+)</.exec(descriptor)?.[1] ?? '';
    return `-----BEGIN CERTIFICATE-----\n${base64.replace(/\s+/g, '').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
  };

  it('encrypted assertions: our metadata advertises an encryption certificate and an assertion encrypted with it signs in', async () => {
    expect(spMetadata).toContain('<KeyDescriptor use="encryption">');
    const { request_id, inResponseTo, relayState } = await startSignIn();
    // Another user than Ada: the single logout tests below expect Ada to have one SAML session.
    const cipher = 'cipher@acme-saml.test';
    const xml = idp.signedResponseXml(sp, { nameId: cipher, inResponseTo, attributes: { email: cipher, firstName: 'Cy' } });
    const encrypted = await encryptAssertion(xml, spEncryptionCertificate());
    expect(encrypted).toContain('<saml:EncryptedAssertion>');
    expect(encrypted).not.toContain(cipher);
    const landing = await postToAcs(sp.acs_url, Buffer.from(encrypted).toString('base64'), relayState ?? undefined);
    expect(landing.status).toBe(302);
    expect((await system.request('GET', `/api/v2/org/${org}/users/${cipher}`)).body.profile.given_name).toBe('Cy');
    expect(params(landing.location)).toEqual({ code: expect.any(String), request_id });
  });

  describe('attacks, each refused with its reason', () => {
    const refusedWith = async (
      reason: string,
      message: string,
      make: (inResponseTo: string) => string | Promise<string>,
      relay = true,
    ) => {
      const { request_id, inResponseTo } = await startSignIn();
      const xml = await make(inResponseTo);
      const hop = await postToAcs(sp.acs_url, Buffer.from(xml).toString('base64'), relay ? request_id : undefined);
      expect(hop.status).toBe(302);
      expect(params(hop.location)).toEqual({ error: 'access_denied', error_description: message, request_id });
      expect(await logged(hop, reason)).toBe(true);
    };
    const signed = (inResponseTo: string, options: Partial<LoginResponseOptions> = {}) =>
      idp.signedResponseXml(sp, { nameId: email, inResponseTo, ...options });

    it('refuses an unsigned response', async () => {
      await refusedWith('unsigned', 'The identity provider response is not signed.', (id) => signed(id, { sign: 'none' }));
    });

    it('refuses a response signed with a key that is not the connection’s, with or without its certificate in KeyInfo', async () => {
      const attacker = await createKeyAndCertificate('attacker');
      const forged = (id: string) =>
        idp.signWith(idp.responseXml(sp, { nameId: email, inResponseTo: id }), 'assertion', attacker);
      await refusedWith('bad_signature', 'The identity provider response signature is not valid.', (id) =>
        forged(id).replace(/<ds:KeyInfo>[\s\S]*?<\/ds:KeyInfo>/, ''),
      );
      await refusedWith(
        'untrusted_certificate',
        'The identity provider response is signed with a certificate this connection does not trust.',
        forged,
      );
    });

    it('refuses a wrapped signature and two assertions', async () => {
      await refusedWith('signature_wrapping', 'The identity provider response has a malformed signature structure.', (id) => {
        const xml = signed(id);
        const original = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] as string;
        const forged = original.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '').replace(email, 'admin@acme-saml.test');
        return xml
          .replace(original, forged)
          .replace('</samlp:Status>', `</samlp:Status><samlp:Extensions>${original}</samlp:Extensions>`);
      });
      await refusedWith('assertion_count', 'The identity provider response must contain exactly one assertion.', (id) => {
        const xml = signed(id);
        const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] as string;
        return xml.replace(assertion, assertion + assertion.replace(/ID="[^"]+"/, 'ID="_second"'));
      });
    });

    it('refuses an assertion encrypted with another key, an unsigned encrypted one, and two assertions inside the encryption', async () => {
      const other = await createKeyAndCertificate('another sp');
      await refusedWith(
        'decryption_failed',
        'The identity provider response could not be decrypted (check the encryption certificate in the identity provider).',
        async (id) => encryptAssertion(signed(id), other.certificatePem),
      );
      await refusedWith('unsigned', 'The identity provider response is not signed.', async (id) =>
        encryptAssertion(signed(id, { sign: 'none' }), spEncryptionCertificate()),
      );
      await refusedWith('assertion_count', 'The identity provider response must contain exactly one assertion.', async (id) => {
        const xml = signed(id);
        const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] as string;
        return encryptAssertion(xml, spEncryptionCertificate(), {
          content: assertion + assertion.replace(/ID="[^"]+"/, 'ID="_second"'),
        });
      });
      await refusedWith(
        'weak_encryption',
        'The identity provider encrypted its assertion with an algorithm that is no longer accepted (use RSA-OAEP and AES).',
        async (id) => encryptAssertion(signed(id), spEncryptionCertificate(), { keyEncryption: 'rsa-1_5' }),
      );
    });

    it('refuses an expired response and wrong audience, recipient, destination', async () => {
      const past = new Date(Date.now() - 600_000).toISOString();
      await refusedWith('expired', 'The identity provider response has expired.', (id) =>
        signed(id, {
          tags: {
            ConditionsNotOnOrAfter: past,
            SubjectConfirmationDataNotOnOrAfter: past,
            ConditionsNotBefore: new Date(Date.now() - 3_600_000).toISOString(),
          },
        }),
      );
      await refusedWith('wrong_audience', 'The identity provider response is meant for another application.', (id) =>
        signed(id, { tags: { Audience: 'https://other.example.com/metadata' } }),
      );
      await refusedWith('wrong_recipient', 'The identity provider response names another recipient.', (id) =>
        signed(id, { tags: { SubjectRecipient: 'https://other.example.com/acs' } }),
      );
      await refusedWith('wrong_destination', 'The identity provider response was sent to another destination.', (id) =>
        signed(id, { tags: { Destination: 'https://other.example.com/acs' } }),
      );
    });

    it('refuses a DOCTYPE and a comment injected in the NameID', async () => {
      await refusedWith(
        'doctype',
        'The identity provider response contains a document type declaration, which is not accepted.',
        (id) => `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${signed(id)}`,
      );
      await refusedWith(
        'comment_injection',
        'The identity provider response contains XML comments in its assertion, which are not accepted.',
        (id) =>
          signed(id, { nameId: 'admin@acme-saml.test.evil.com' }).replace(
            'admin@acme-saml.test.evil.com',
            'admin@acme-saml.test<!---->.evil.com',
          ),
      );
    });

    it('refuses an unsolicited assertion passed off, by an unsigned InResponseTo on the Response, as the answer to a pending sign-in', async () => {
      const allowIdpInitiated = (allow: boolean) =>
        system.request('PUT', `/api/v2/org/${org}/sso-connection`, { body: { allow_idp_initiated: allow } });
      expect((await allowIdpInitiated(false)).body.allow_idp_initiated).toBe(false);
      try {
        const { request_id, inResponseTo, relayState } = await startSignIn();
        const mallory = 'mallory@acme-saml.test';
        const unsolicited = () => idp.signedResponseXml(sp, { nameId: mallory, attributes: { email: mallory } });
        const base64 = (xml: string) => Buffer.from(xml).toString('base64');
        // Login CSRF: the attacker's own signed assertion, the victim's pending request named outside the signature.
        const forged = unsolicited().replace('<samlp:Response ', `<samlp:Response InResponseTo="${inResponseTo}" `);
        const hop = await postToAcs(sp.acs_url, base64(forged));
        expect(hop.status).toBe(400);
        expect(hop.body).toContain('The identity provider response names the sign-in request it answers outside its signature.');
        expect(hop.location).toBeNull();
        expect(await logged(hop, 'in_response_to_unsigned')).toBe(true);
        expect((await system.request('GET', `/api/v2/org/${org}/users/${mallory}`)).status).toBe(404);
        const plain = await postToAcs(sp.acs_url, base64(unsolicited()));
        expect(plain.status).toBe(400);
        expect(plain.body).toContain('Sign-ins started at the identity provider are not allowed for this organization.');

        // Nothing was recorded on the pending challenge: the IdP's real answer still completes it.
        // (Another user than Ada: the single logout tests below expect Ada to have one SAML session.)
        const victim = 'victor@acme-saml.test';
        const landing = await postToAcs(
          sp.acs_url,
          idp.loginResponse(sp, { nameId: victim, inResponseTo }),
          relayState ?? undefined,
        );
        expect(params(landing.location)).toEqual({ code: expect.any(String), request_id });

        // A signed Response carrying InResponseTo on itself only (the assertion unsigned, without it) is an answer.
        const next = await startSignIn();
        const responseOnly = idp
          .responseXml(sp, { nameId: victim, inResponseTo: next.inResponseTo })
          .replace(/ InResponseTo="[^"]*"(?=\/>)/, '');
        const signedResponse = await postToAcs(
          sp.acs_url,
          base64(idp.signWith(responseOnly, 'response')),
          next.relayState ?? undefined,
        );
        expect(params(signedResponse.location)).toEqual({ code: expect.any(String), request_id: next.request_id });
      } finally {
        await allowIdpInitiated(true);
      }
      await refusedWith('in_response_to_mismatch', 'The identity provider response answers two different requests.', (id) =>
        signed(id).replace(/(<samlp:Response[^>]*?) InResponseTo="[^"]+"/, '$1 InResponseTo="_another-request"'),
      );
    });

    it('refuses an InResponseTo we never issued, on an error page (no known redirect)', async () => {
      const xml = idp.signedResponseXml(sp, { nameId: email, inResponseTo: '_4b7f6c1e-7a43-4a57-9a59-4cb9d7b5e0a1' });
      const hop = await postToAcs(sp.acs_url, Buffer.from(xml).toString('base64'));
      expect(hop.status).toBe(400);
      expect(hop.body).toContain('The identity provider response answers a sign-in request we did not make.');
      expect(hop.body).not.toMatch(/at \w+ \(|Error:/);
      expect(await logged(hop, 'unknown_in_response_to')).toBe(true);
    });
  });

  it("answers the challenge on the plural path Cryptr's SDKs call, from their form body", async () => {
    const form = new URLSearchParams({ redirect_uri: callback, org_domain: org }).toString();
    const { status, body } = await system.request('POST', '/api/v2/sso-saml-challenges', { form });
    expect(status).toBe(201);
    expect(body.authorization_url).toMatch(new RegExp(`/sso/saml/[^/]+/authorize\\?request_id=${body.request_id}$`));
  });

  it('validates the challenge: redirect URI registered, exactly one of user_email or org_domain', async () => {
    expect(await system.request('POST', '/api/v2/sso-saml-challenge', { body: { org_domain: org } })).toMatchObject({
      status: 422,
      body: { errors: { redirect_uri: ["can't be blank"] } },
    });
    expect(await system.request('POST', '/api/v2/sso-saml-challenge', { body: { redirect_uri: callback } })).toMatchObject({
      status: 422,
      body: { errors: { user_email: ['give exactly one of user_email or org_domain'] } },
    });
    expect(
      await system.request('POST', '/api/v2/sso-saml-challenge', {
        body: { redirect_uri: 'https://evil.example.com/cb', org_domain: org },
      }),
    ).toMatchObject({ status: 422, body: { errors: { redirect_uri: ['is not a registered redirect URI'] } } });
    expect(
      await system.request('POST', '/api/v2/sso-saml-challenge', {
        body: { redirect_uri: callback, user_email: 'x@nowhere.test' },
      }),
    ).toMatchObject({
      status: 422,
      body: { errors: { org_domain: ['is required: no organization allows the domain of this email'] } },
    });
  });

  it('test sign-in of the onboarding page: the attributes come back, no user is created, no code is issued', async () => {
    const rpc = await RpcClient.connect({
      nats: system.natsOptions('test-peer'),
      prefix: system.prefix,
      timeoutMs: 10_000,
    });
    const call = (subject: string, input: unknown): Promise<RpcReply<any>> =>
      rpc.request(subject, { meta: { correlationId: randomUUID() }, input });
    try {
      const returnUrl = `${system.baseUrl}/onboarding/sso-test`;
      const scope = { organization_domain: org, environment: 'sandbox' };
      expect(
        await call(subjects.authMethods.sso.testSignIn, { ...scope, return_url: 'https://evil.example.com/x' }),
      ).toMatchObject({
        ok: false,
        error: { kind: 'fields', fields: { return_url: ['must be a page of Sesame'] } },
      });
      const started = await call(subjects.authMethods.sso.testSignIn, { ...scope, return_url: returnUrl });
      expect(started).toMatchObject({
        ok: true,
        body: { request_id: expect.any(String), authorization_url: expect.any(String) },
      });
      const { request_id, authorization_url } = started.ok ? started.body : ({} as never);
      expect(await call(subjects.authMethods.sso.testResult, { request_id })).toMatchObject({
        ok: true,
        body: { status: 'pending' },
      });
      const hop = await browserGet(authorization_url);
      const request = await idpReceivesAuthnRequest(idp, hop.location as string, spMetadata);
      const tess = 'tess@acme-saml.test';
      const landing = await postToAcs(
        sp.acs_url,
        idp.loginResponse(sp, { nameId: tess, inResponseTo: request.id, attributes: { firstName: 'Tess', department: 'IT' } }),
        request.relayState ?? undefined,
      );
      expect(landing.status).toBe(302);
      expect(landing.location).toBe(`${returnUrl}?request_id=${request_id}&sso_test=success`);
      expect(await call(subjects.authMethods.sso.testResult, { request_id })).toEqual({
        ok: true,
        status: 200,
        body: {
          status: 'succeeded',
          name_id: tess,
          email: tess,
          attributes: { firstName: ['Tess'], department: ['IT'] },
          profile: { given_name: 'Tess' },
          reason: null,
          message: null,
        },
      });
      expect((await system.request('GET', `/api/v2/org/${org}/users/${tess}`)).status).toBe(404);
      expect(
        await call(subjects.authMethods.sso.testResult, {
          request_id,
          organization_domain: 'another-org',
          environment: 'sandbox',
        }),
      ).toMatchObject({
        ok: false,
        error: { kind: 'error', code: 'resource_not_found' },
      });
    } finally {
      await rpc.close();
    }
  });

  describe('single logout', () => {
    it('SP-initiated: our signed LogoutRequest to the IdP, its LogoutResponse back, then the redirect URI', async () => {
      const started = await system.request('POST', '/api/v2/sso-saml-logout', {
        body: { org_domain: org, user_email: email, redirect_uri: callback },
      });
      expect(started.status).toBe(201);
      expect(started.body).toEqual({
        request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        logout_url: `${system.baseUrl}/sso/saml/${org}_sandbox/logout?request_id=${started.body.request_id}`,
        redirect_uri: callback,
      });
      const toIdp = await browserGet(started.body.logout_url);
      expect(toIdp.status).toBe(302);
      const request = redirectBindingRequest(toIdp.location as string);
      expect(request.destination).toBe(`${idp.entityId}/slo`);
      const spEntity = spEntityOf(spMetadata);
      const parsed = await idp.entity().parseLogoutRequest(spEntity, 'redirect', request);
      expect(parsed.extract).toMatchObject({ nameID: email, request: { id: `_logout_${started.body.request_id}` } });

      const answer = idp.entity().createLogoutResponse(spEntity, parsed as never, 'redirect', {
        relayState: request.query.RelayState ?? '',
      }) as { context: string };
      expect(answer.context.startsWith(`${system.baseUrl}/sso/saml/${org}_sandbox/slo?`)).toBe(true);
      const back = await browserGet(answer.context);
      expect(back.status).toBe(302);
      expect(params(back.location)).toEqual({ request_id: started.body.request_id, logout: 'success' });
      expect(
        await system.request('POST', '/api/v2/sso-saml-logout', {
          body: { org_domain: org, user_email: email, redirect_uri: callback },
        }),
      ).toMatchObject({ status: 422, body: { errors: { user_email: ['has no open SSO session'] } } });
    });

    it('IdP-initiated: the IdP’s signed LogoutRequest ends the sessions of that NameID and gets our signed LogoutResponse', async () => {
      const spEntity = spEntityOf(spMetadata);
      const request = idp
        .entity()
        .createLogoutRequest(spEntity, 'redirect', { logoutNameID: 'grace@acme-saml.test' }, { relayState: 'idp-state' }) as {
        context: string;
      };
      const hop = await browserGet(request.context);
      expect(hop.status).toBe(302);
      const response = redirectBindingRequest(hop.location as string);
      expect(response.destination).toBe(`${idp.entityId}/slo`);
      const parsed = await idp.entity().parseLogoutResponse(spEntity, 'redirect', response);
      expect(parsed.extract).toMatchObject({ issuer: sp.entity_id });
      expect(response.query.RelayState).toBe('idp-state');
      expect(
        await system.request('POST', '/api/v2/sso-saml-logout', {
          body: { org_domain: org, user_email: 'grace@acme-saml.test', redirect_uri: callback },
        }),
      ).toMatchObject({ status: 422, body: { errors: { user_email: ['has no open SSO session'] } } });
    });

    it('refuses a logout request signed with another key, on an error page with the reason logged', async () => {
      const attacker = await TestIdp.create(idp.entityId);
      const request = attacker.entity().createLogoutRequest(spEntityOf(spMetadata), 'redirect', { logoutNameID: email }) as {
        context: string;
      };
      const hop = await browserGet(request.context);
      expect(hop.status).toBe(400);
      expect(hop.body).toContain('The logout request of the identity provider was refused.');
      expect(await logged(hop, 'bad_signature')).toBe(true);
    });
  });

  it('ends on a page, not a stack trace, when the organization is gone', async () => {
    expect((await system.request('DELETE', `/api/v2/organizations/${org}`)).status).toBe(200);
    const hop = await postToAcs(sp.acs_url, idp.loginResponse(sp, { nameId: email }));
    expect(hop.status).toBe(400);
    expect(hop.body).toContain('Single sign-on is not available for this organization.');
    expect(hop.body).not.toMatch(/at \w+ \(|Error:/);
    expect(await logged(hop, 'connection_unavailable')).toBe(true);
  });
});
