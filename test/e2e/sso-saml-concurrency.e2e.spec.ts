import { System } from '../support/system';
import { createOrganization } from '../support/identity-fixtures';
import { TestIdp } from '../support/saml-idp';
import { browserGet, idpReceivesAuthnRequest, postToAcs } from '../support/saml-browser';
import type { Hop } from '../support/saml-browser';

const callback = 'https://app.example.com/callback';

/**
 * Several valid responses to one sign-in request reaching the ACS at once (a user going back and
 * signing in again at the IdP, say): the challenge is checked again once a sign-in has it to
 * itself, so one signs in and the others are refused as `challenge_used` before any user is
 * provisioned or updated. On 2288c31 the others provisioned or updated the user, then failed on
 * the used challenge with a 500 page.
 */
describe('SAML ACS: concurrent responses to one challenge (all processes)', () => {
  let system: System;
  let idp: TestIdp;
  let sp: { entity_id: string; acs_url: string };
  let spMetadata: string;

  beforeAll(async () => {
    // Two validation threads, so that the responses are validated side by side and race for the challenge.
    system = await System.start({ processEnv: { 'auth-methods': { SESAME_SAML_VALIDATION_THREADS: '2' } } });
    const org = await createOrganization(system, 'Acme Concurrent SAML', { allowed_email_domains: ['acme-race.test'] });
    await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } });
    idp = await TestIdp.create();
    const created = await system.request('POST', `/api/v2/org/${org}/sso-connection`, {
      body: { provider_type: 'okta', metadata: idp.metadata() },
    });
    expect(created.status).toBe(201);
    sp = { entity_id: created.body.saml_config.entity_id, acs_url: created.body.saml_config.acs_url };
    spMetadata = await (await fetch(created.body.saml_config.cryptr_metadata_url)).text();
  });
  afterAll(async () => {
    await system?.stop();
  });

  const query = (hop: Hop) => (hop.location ? Object.fromEntries(new URL(hop.location).searchParams.entries()) : null);

  it('signs in once and refuses the others as challenge_used, never with an error page', async () => {
    for (const [round, email] of ['first@acme-race.test', 'second@acme-race.test', 'third@acme-race.test'].entries()) {
      const { status, body } = await system.request('POST', '/api/v2/sso-saml-challenge', {
        body: { redirect_uri: callback, user_email: email },
      });
      expect(status).toBe(201);
      const hop = await browserGet(body.authorization_url);
      const request = await idpReceivesAuthnRequest(idp, hop.location as string, spMetadata);
      const responses = [1, 2, 3, 4].map(() =>
        idp.loginResponse(sp, { nameId: email, inResponseTo: request.id, attributes: { email } }),
      );
      const answers = await Promise.all(
        responses.map((response) => postToAcs(sp.acs_url, response, request.relayState ?? undefined)),
      );
      expect({ round, statuses: answers.map((answer) => answer.status) }).toEqual({ round, statuses: [302, 302, 302, 302] });
      const signedIn = answers.filter((answer) => query(answer)?.code);
      expect(signedIn).toHaveLength(1);
      expect(query(signedIn[0] as Hop)).toEqual({ code: expect.any(String), request_id: body.request_id });
      for (const refused of answers.filter((answer) => !query(answer)?.code))
        expect(query(refused)).toEqual({
          error: 'access_denied',
          error_description: 'This sign-in request was already used.',
          request_id: body.request_id,
        });
    }
  });
});
