import { subjects } from '@sesame/contracts';
import { anOrganization, authMethodsSpecification, identityAnswers, sandboxKey } from './auth-methods.spec-kit';

const relays = subjects.authMethods.relays;
const partnerId = '00000000-0000-4000-8000-0000000000b1';
const partner = anOrganization({ id: partnerId, domain: 'partner', name: 'Partner', allowed_email_domains: [] });
const acme = anOrganization();
const partnerRedirect = 'https://partner.example.com/relay';
const organizationCall = (domain: string) => ({
  subject: subjects.identity.organizations.get,
  input: { params: { org_domain: domain }, query: {}, body: {} },
});
const create = (body: Record<string, unknown>) => ({
  params: {},
  query: {},
  body: { partner_redirect_uri: partnerRedirect, ...body },
});

async function relaysOf() {
  return authMethodsSpecification(identityAnswers([acme, partner], []));
}

describe('relays in the auth-methods service (its router and handlers on in-memory stores, identity answered by a table)', () => {
  it('creates a relay into a partner organization from its source organizations: 201, the relay recorded with their ids', async () => {
    const { spec } = await relaysOf();
    const relay = {
      id: expect.any(String),
      environment: 'sandbox',
      organization_id: partnerId,
      partner_domain: 'partner',
      source_organizations: ['acme'],
      // The source organization's id, by which its deletion is decided (a later acme is another).
      source_organization_ids: { acme: acme.id },
      partner_redirect_uri: partnerRedirect,
      jit: false,
      session_duration_minutes: expect.any(Number),
      inserted_at: expect.any(String),
    };
    const outcome = await spec
      .when(relays.create, create({ partner_domain: 'partner', source_organizations: ['acme', 'acme'] }), sandboxKey)
      .then({
        reply: {
          ok: true,
          status: 201,
          body: expect.objectContaining({
            partner_domain: 'partner',
            source_organizations: ['acme'],
            partner_redirect_uri: partnerRedirect,
            jit: false,
          }),
        },
        events: [{ stream: expect.stringMatching(/^relay-/), type: 'RelayCreated', data: expect.objectContaining({ relay }) }],
        calls: [organizationCall('partner'), organizationCall('acme')],
      });
    const { id } = (outcome.reply as { body: { id: string } }).body;
    expect(outcome.events[0]!.stream).toBe(`relay-${id}`);
  });

  it('refuses a partner organization that restricts its email domains (relayed users come from elsewhere)', async () => {
    const { spec } = await relaysOf();
    await spec.when(relays.create, create({ partner_domain: 'acme' }), sandboxKey).then({
      reply: {
        ok: false,
        error: { kind: 'fields', fields: { partner_domain: ['must be an organization without allowed email domains'] } },
      },
      calls: [organizationCall('acme')],
    });
  });

  it('answers 404 for an unknown partner or source organization, recording nothing', async () => {
    const { spec } = await relaysOf();
    await spec.when(relays.create, create({ partner_domain: 'partner', source_organizations: ['nowhere'] }), sandboxKey).then({
      reply: { ok: false, error: { kind: 'error', code: 'resource_not_found' } },
      calls: [organizationCall('partner'), organizationCall('nowhere')],
    });
    await spec.when(relays.create, create({ partner_domain: 'nowhere' }), sandboxKey).then({
      reply: { ok: false, error: { kind: 'error', code: 'resource_not_found' } },
      calls: [organizationCall('nowhere')],
    });
  });

  it('refuses a relay request for an unknown relay, or without a valid user access token, calling nobody', async () => {
    const { spec } = await relaysOf();
    const created = await spec.request(relays.create, create({ partner_domain: 'partner' }), sandboxKey);
    const { id } = (created.reply as { body: { id: string } }).body;
    await spec
      .when(
        relays.request,
        { params: { relay_id: '00000000-0000-4000-8000-0000000000ff' }, query: {}, body: { access_token: 'x' } },
        sandboxKey,
      )
      .then({
        reply: { ok: false, error: { kind: 'error', code: 'missing_relay_id' } },
      });
    await spec
      .when(relays.request, { params: { relay_id: id }, query: {}, body: { access_token: 'not.a.token' } }, sandboxKey)
      .then({
        reply: { ok: false, error: { kind: 'error', code: 'missing_access_token' } },
      });
    await spec
      .when(
        relays.request,
        { params: { relay_id: id }, query: {}, body: { access_token: 'not.a.token' } },
        { ...sandboxKey, environment: 'production' },
      )
      .then({
        reply: { ok: false, error: { kind: 'error', code: 'missing_relay_id' } },
      });
  });
});
