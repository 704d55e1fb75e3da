import { subjects } from '@sesame/contracts';
import type { Organization } from '@sesame/contracts';
import type { CallTable } from '@sesame/platform/testing';
import {
  aUser,
  acmeId,
  anOrganization,
  authMethodsSpecification,
  identityAnswers,
  ok,
  sandboxKey,
} from './auth-methods.spec-kit';

const magicLink = subjects.authMethods.magicLink;
const ada = aUser();
const callback = 'https://app.example.com/callback';
const scope = { organization_domain: 'acme', environment: 'sandbox' };
const tenant = { organization_id: acmeId, ...scope };
const forSignIn = (email: string) => ({
  subject: subjects.identity.organizations.forSignIn,
  input: { email, org_domain: 'acme' },
});
const redirectCheck = (url: string) => ({
  subject: subjects.identity.redirectUris.check,
  input: { environment: 'sandbox', url },
});
const byEmail = (email: string) => ({ subject: subjects.identity.users.findByEmail, input: { ...scope, email } });
const challenge = (email: string, redirect_uri = callback) => ({
  params: {},
  query: {},
  body: { email, org_domain: 'acme', redirect_uri },
});

/** Identity: acme (with `fields`) and ada; one registered redirect URI, the default. */
function identity(fields: Partial<Organization> = {}): CallTable {
  const organization = anOrganization(fields);
  return identityAnswers([organization], [ada], {
    [subjects.identity.organizations.forSignIn]: () => ok(200, { organization }),
    [subjects.identity.redirectUris.check]: (input: { url: string }) =>
      ok(200, { registered: input.url === callback, default_url: callback }),
  });
}

/** Acme with an active magic-link connection (made through the service's handler). */
async function magicLinks(fields: Partial<Organization> = {}, connection: Record<string, unknown> = {}) {
  const kit = await authMethodsSpecification(identity(fields));
  const body = { ...connection };
  await kit.spec.request(magicLink.createConnection, { params: { org_domain: 'acme' }, query: {}, body }, sandboxKey);
  return kit;
}

describe('magic links in the auth-methods service (its router and handlers on in-memory stores, identity answered by a table)', () => {
  it('creates the connection of the organization: 201, active, no user creation', async () => {
    const { spec } = await authMethodsSpecification(identity());
    await spec.when(magicLink.createConnection, { params: { org_domain: 'acme' }, query: {}, body: {} }, sandboxKey).then({
      reply: {
        ok: true,
        status: 201,
        body: { id: expect.any(String), active: true, find_or_create_user: false, sign_in_template_id: null },
      },
      events: [
        {
          stream: `magicLinkConnection-sandbox:${acmeId}`,
          type: 'MagicLinkConnectionCreated',
          data: {
            ...tenant,
            connection: { id: expect.any(String), active: true, find_or_create_user: false, sign_in_template_id: null },
            at: expect.any(String),
          },
        },
      ],
      calls: [{ subject: subjects.identity.organizations.get, input: { params: { org_domain: 'acme' }, query: {}, body: {} } }],
    });
  });

  it('mails a known user a single-use link to the redirect URI, answering the code in the sandbox', async () => {
    const { spec, mails } = await magicLinks();
    const outcome = await spec.when(magicLink.challenge, challenge('ada@acme.example'), sandboxKey).then({
      reply: {
        ok: true,
        status: 201,
        body: {
          code: expect.any(String),
          email_address: 'ada@acme.example',
          find_or_create_user: false,
          magic_link: expect.stringMatching(/^https:\/\/app\.example\.com\/callback\?code=[\w-]+&request_id=[\w-]+$/),
          request_id: expect.any(String),
        },
      },
      events: [
        {
          stream: expect.stringMatching(/^authorizationCode-/),
          type: 'AuthorizationCodeIssued',
          data: expect.objectContaining({
            ...scope,
            user_id: ada.id,
            method: 'magic_link',
            client_id: 'client-1',
            redirect_uri: callback,
          }),
        },
      ],
      calls: [forSignIn('ada@acme.example'), redirectCheck(callback), byEmail('ada@acme.example')],
    });
    const { magic_link } = (outcome.reply as { body: { magic_link: string } }).body;
    expect(mails).toEqual([
      expect.objectContaining({
        to: 'ada@acme.example',
        subject: 'Your sign-in link for Acme',
        links: [{ rel: 'magic-link', url: magic_link }],
        tags: ['magic-link', 'acme'],
      }),
    ]);
  });

  it('answers an unknown email exactly as a known one, without a code, a link or a mail', async () => {
    const { spec, mails } = await magicLinks();
    await spec.when(magicLink.challenge, challenge('bob@acme.example'), sandboxKey).then({
      reply: {
        ok: true,
        status: 201,
        body: {
          code: null,
          email_address: 'bob@acme.example',
          find_or_create_user: false,
          magic_link: null,
          request_id: expect.any(String),
        },
      },
      calls: [forSignIn('bob@acme.example'), redirectCheck(callback), byEmail('bob@acme.example')],
    });
    expect(mails).toEqual([]);
  });

  it('refuses a redirect URI that is not registered (422) before looking the user up', async () => {
    const { spec, mails } = await magicLinks();
    await spec.when(magicLink.challenge, challenge('ada@acme.example', 'https://evil.example.com/'), sandboxKey).then({
      reply: { ok: false, error: { kind: 'fields', fields: { redirect_uri: ['is not a registered redirect URI'] } } },
      calls: [forSignIn('ada@acme.example'), redirectCheck('https://evil.example.com/')],
    });
    expect(mails).toEqual([]);
  });

  it('refuses an organization that does not allow magic links, before anything else', async () => {
    const { spec, mails } = await magicLinks({ allowed_authn_connections: ['password'] });
    await spec.when(magicLink.challenge, challenge('ada@acme.example'), sandboxKey).then({
      reply: { ok: false, error: { kind: 'error', code: 'authn_connection_not_allowed' } },
      calls: [forSignIn('ada@acme.example')],
    });
    expect(mails).toEqual([]);
  });

  it('refuses while the connection another replica stored is inactive', async () => {
    const { spec, mails } = await authMethodsSpecification(identity());
    const connection = {
      id: '00000000-0000-4000-8000-0000000000c1',
      active: false,
      find_or_create_user: false,
      sign_in_template_id: null,
    };
    const created = { type: 'MagicLinkConnectionCreated', data: { ...tenant, connection, at: '2026-01-01T00:00:00.000Z' } };
    await spec
      .given({ [`magicLinkConnection-sandbox:${acmeId}`]: [created] }, 'sandbox')
      .when(magicLink.challenge, challenge('ada@acme.example'), sandboxKey)
      .then({
        reply: { ok: false, error: { kind: 'fields', fields: { org_domain: ['has no active magic link connection'] } } },
        calls: [forSignIn('ada@acme.example')],
      });
    expect(mails).toEqual([]);
  });
});
