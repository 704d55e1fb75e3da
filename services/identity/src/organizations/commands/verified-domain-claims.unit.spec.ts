import type { Environment, OrganizationSettings } from '@sesame/contracts';
import { Aggregate, DomainError, MemoryEventStore, reservationStream } from '@sesame/platform';
import { verifiedDomainReservationKind } from '../domain/domain-verification';
import type { OrganizationCommand } from '../domain/organization.decider';
import { organizationAggregate } from './organization.aggregate';
import { runOrganizationCommand } from './organization.commands';

const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
const at = metadata.occurredAt;
const settings = (name: string, environment: Environment): OrganizationSettings => ({
  name,
  allowed_email_domains: ['acme.com'],
  allowed_authn_connections: ['sso'],
  color: null,
  icon_logo_url: null,
  inline_logo_url: null,
  locale: null,
  timezone: null,
  tenant_id: null,
  environments: [{ name: environment, status: 'up' }],
});
const tokens = { first: 'token-of-first', second: 'token-of-second' };

/** Two organizations allowing `acme.com` in each environment, on a fresh event store. */
function organizations() {
  const eventStore = new MemoryEventStore();
  const deps = { organizations: new Aggregate({ eventStore }, organizationAggregate) };
  const run = (domain: string, command: OrganizationCommand, environment: Environment = 'production') =>
    runOrganizationCommand(deps, environment, domain, command, metadata);
  return {
    eventStore,
    run,
    async setUp(environment: Environment = 'production') {
      for (const domain of ['first', 'second'] as const) {
        await run(
          domain,
          {
            type: 'CreateOrganization',
            data: { id: crypto.randomUUID(), domain, environment, settings: settings(domain, environment), provisioners: [], at },
          },
          environment,
        );
        await run(
          domain,
          { type: 'StartDomainVerification', data: { email_domain: 'acme.com', token: tokens[domain], at } },
          environment,
        );
      }
    },
    verify: (domain: keyof typeof tokens, environment: Environment = 'production') =>
      run(
        domain,
        {
          type: 'VerifyDomain',
          data: {
            email_domain: 'acme.com',
            lookup: { outcome: 'records', records: Object.values(tokens).map((token) => `sesame-verification=${token}`) },
            at,
          },
        },
        environment,
      ),
    holder: async (environment: Environment = 'production') => {
      const { events } = await eventStore.readStream(reservationStream(verifiedDomainReservationKind, `${environment}:acme.com`));
      const last = events.at(-1) as { type: string; data: { owner: string } } | undefined;
      return last?.type === 'UniqueValueReserved' ? last.data.owner : null;
    },
  };
}

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error.error;
    throw error;
  }
  throw new Error('refusal expected');
};

describe('verified domain reservations', () => {
  it('reserves a verified domain for its organization and refuses it to another of the environment', async () => {
    const store = organizations();
    await store.setUp();
    await store.verify('first');
    expect(await store.holder()).toBe('organization-production:first');
    expect(await refusal(store.verify('second'))).toEqual({ kind: 'error', code: 'domain_verified_by_another_organization' });
    expect(await refusal(store.run('second', { type: 'AssertDomain', data: { email_domain: 'acme.com', at } }))).toEqual({
      kind: 'error',
      code: 'domain_verified_by_another_organization',
    });
  });

  it('lets the other environment verify the same domain', async () => {
    const store = organizations();
    await store.setUp();
    await store.setUp('sandbox');
    await store.verify('first');
    const sandbox = await store.verify('second', 'sandbox');
    expect(sandbox.status === 'active' && sandbox.domain_verifications[0]?.status).toBe('verified');
    expect(await store.holder('sandbox')).toBe('organization-sandbox:second');
  });

  it('reserves nothing when the check fails', async () => {
    const store = organizations();
    await store.setUp();
    await store.run('first', {
      type: 'VerifyDomain',
      data: { email_domain: 'acme.com', lookup: { outcome: 'not_found' }, at },
    });
    expect(await store.holder()).toBeNull();
    await store.verify('second');
    expect(await store.holder()).toBe('organization-production:second');
  });

  it('gives the domain back when the organization is deleted', async () => {
    const store = organizations();
    await store.setUp();
    await store.verify('first');
    await store.run('first', { type: 'DeleteOrganization', data: { at } });
    expect(await store.holder()).toBeNull();
    await store.verify('second');
    expect(await store.holder()).toBe('organization-production:second');
  });

  it('gives the domain back when the organization no longer allows it', async () => {
    const store = organizations();
    await store.setUp();
    await store.verify('first');
    await store.run('first', { type: 'UpdateOrganization', data: { changes: { allowed_email_domains: [] }, at } });
    expect(await store.holder()).toBeNull();
  });
});
