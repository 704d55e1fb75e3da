import { randomUUID } from 'node:crypto';
import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';
import { createOrganization } from '../support/identity-fixtures';

const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const inactive = {
  status: 400,
  body: { error: 'invalid_grant', error_description: 'The user of this grant no longer exists or is inactive' },
};

describe('SCIM deactivation ends the sign-ins of a user (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  let base: string;
  let scimToken: string;
  const emailDomain = `scim-off-${randomUUID().slice(0, 8)}.example.com`;
  beforeAll(async () => {
    system = await sharedSystem();
    org = await createOrganization(system, `Scim Off ${emailDomain}`, { allowed_email_domains: [emailDomain] });
    const { body } = await system.request('POST', `/api/v2/org/${org}/directory-sync`, { body: { provider_type: 'okta' } });
    base = new URL(body.scim_base_url).pathname;
    scimToken = body.auth_secret_token.value;
  });

  const scim = (method: string, path: string, body: unknown) =>
    system.request(method, `${base}${path}`, { token: scimToken, headers: { 'content-type': 'application/scim+json' }, body });
  /** The token endpoint, authenticated with the API key that started the sign-ins. */
  const token = (body: Record<string, string>) =>
    system.request('POST', '/oauth/token', {
      token: null,
      form: new URLSearchParams({
        ...body,
        client_id: system.apiKey.clientId,
        client_secret: system.apiKey.clientSecret,
      }).toString(),
    });

  it('refuses the refresh token and new codes of a user that Okta deactivated (PATCH active false)', async () => {
    const email = `lin@${emailDomain}`;
    const provisioned = await scim('POST', '/Users', {
      schemas: [userSchema],
      userName: email,
      emails: [{ value: email, primary: true }],
      active: true,
    });
    expect(provisioned.status).toBe(201);
    const plain_text = 'correct horse battery staple 42';
    expect(
      (await system.request('POST', '/api/v2/password', { body: { org_domain: org, user_email: email, plain_text } })).status,
    ).toBe(201);
    const signIn = async () =>
      (await system.request('POST', '/api/v2/password-challenge', { body: { org_domain: org, user_email: email, plain_text } }))
        .body;
    const first = await signIn();
    const tokens = await token({ grant_type: 'authorization_code', code: first.code });
    expect(tokens).toMatchObject({ status: 200, body: { refresh_token: expect.any(String) } });
    const pendingCode = (await signIn()).code as string;

    const patched = await scim('PATCH', `/Users/${provisioned.body.id}`, {
      schemas: [patchOp],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(patched.status).toBeLessThan(300);
    expect((await system.request('GET', `/api/v2/org/${org}/users/${first.user_id}`)).body).toMatchObject({ active: false });

    expect(await token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token })).toEqual(
      expect.objectContaining(inactive),
    );
    expect(await token({ grant_type: 'authorization_code', code: pendingCode })).toEqual(expect.objectContaining(inactive));
  });
});
