import { subjects } from '@sesame/contracts';
import { TestIdp } from '../../../test/support/saml-idp';
import { anOrganization, authMethodsSpecification, identityAnswers, ok, sandboxKey } from './auth-methods.spec-kit';

const sso = subjects.authMethods.sso;
const callback = 'https://app.example.com/callback';
const acme = anOrganization();

/** The error page a refused sign-in without a pending challenge answers: the refusal's message, never its detail. */
const refusalPage = (message: string) => ({
  ok: true,
  status: 400,
  body: expect.stringContaining(`<h1>Sign-in failed</h1><p>${message}</p>`),
  headers: expect.objectContaining({ 'content-type': 'text/html; charset=utf-8' }),
});

describe('SAML ACS refusals in the auth-methods service (its router and handlers on in-memory stores, identity answered by a table)', () => {
  let idp: TestIdp;
  let spec: Awaited<ReturnType<typeof authMethodsSpecification>>['spec'];
  let sp: { entity_id: string; acs_url: string };
  let spId: string;

  beforeAll(async () => {
    idp = await TestIdp.create('https://idp.example.com/saml');
    ({ spec } = await authMethodsSpecification(
      identityAnswers([acme], [], {
        [subjects.identity.organizations.forSignIn]: () => ok(200, { organization: acme }),
        [subjects.identity.redirectUris.check]: (input: { url: string }) =>
          ok(200, { registered: input.url === callback, default_url: callback }),
      }),
    ));
    const body = { provider_type: 'okta', metadata: idp.metadata() };
    const created = await spec.request(sso.create, { params: { org_domain: 'acme' }, query: {}, body }, sandboxKey);
    const connection = (created.reply as { body: { sp_id: string; saml_config: typeof sp } }).body;
    ({ sp_id: spId } = connection);
    sp = { entity_id: connection.saml_config.entity_id, acs_url: connection.saml_config.acs_url };
  }, 60_000);

  /** An SP-initiated sign-in of ada, pending: its request id is the RelayState the IdP sends back. */
  const pendingChallenge = async () => {
    const body = { user_email: 'ada@acme.example', redirect_uri: callback };
    const challenge = await spec.request(sso.challenge, { params: {}, query: {}, body }, sandboxKey);
    return (challenge.reply as { body: { request_id: string } }).body.request_id;
  };
  const acs = (body: { SAMLResponse: string; RelayState?: string }, id = spId) =>
    spec.when(sso.acs, { params: { sp_id: id }, query: {}, body }, {});

  it('sends the browser of a pending challenge back to the application with access_denied, and records the failed challenge', async () => {
    const requestId = await pendingChallenge();
    const stream = `ssoChallenge-${requestId}`;
    const description = new URLSearchParams({
      error_description: 'The identity provider sent a response that could not be read.',
    });
    await acs({ SAMLResponse: Buffer.from('<nope').toString('base64'), RelayState: requestId }).then({
      reply: {
        ok: true,
        status: 302,
        body: '',
        headers: {
          location: `${callback}?error=access_denied&${description}&request_id=${requestId}`,
          'cache-control': 'no-store',
        },
      },
      events: [
        { stream: `claim-${stream}@1`, type: 'RevisionClaimed', data: { stream, revision: 1, owner: expect.any(String) } },
        {
          stream,
          type: 'SsoChallengeFailed',
          data: {
            organization_domain: 'acme',
            environment: 'sandbox',
            sso_connection_id: expect.any(String),
            request_id: requestId,
            reason: 'malformed',
            at: expect.any(String),
          },
        },
      ],
    });
    // The challenge is no longer pending: a second response naming it gets the page, and changes nothing.
    await acs({ SAMLResponse: Buffer.from('<nope').toString('base64'), RelayState: requestId }).then({
      reply: refusalPage('The identity provider sent a response that could not be read.'),
    });
  });

  it('refuses an unsigned response, and one meant for another audience, with the page and no event', async () => {
    await acs({ SAMLResponse: idp.loginResponse(sp, { nameId: 'ada@acme.example', sign: 'none' }) }).then({
      reply: refusalPage('The identity provider response is not signed.'),
    });
    const elsewhere = idp.loginResponse(sp, { nameId: 'ada@acme.example', tags: { Audience: 'https://elsewhere.example.com' } });
    await acs({ SAMLResponse: elsewhere }).then({
      reply: refusalPage('The identity provider response is meant for another application.'),
    });
  });

  it('refuses a response signed by a key the connection does not trust', async () => {
    const stranger = await TestIdp.create('https://idp.example.com/saml');
    await acs({ SAMLResponse: stranger.loginResponse(sp, { nameId: 'ada@acme.example' }) }).then({
      reply: refusalPage('The identity provider response is signed with a certificate this connection does not trust.'),
    });
  }, 30_000);

  it('answers "not available" for a service provider id with no connection, calling nobody', async () => {
    await acs({ SAMLResponse: idp.loginResponse(sp, { nameId: 'ada@acme.example' }) }, 'nowhere_sandbox').then({
      reply: refusalPage('Single sign-on is not available for this organization.'),
    });
  });
});
