import { MemoryReadModelStore } from '@sesame/platform';
import type { DomainVerificationRecord } from '../domain/domain-verification';
import { routingByEmailFilter } from './organization.queries';

const verification = (email_domain: string, status: 'pending' | 'verified'): DomainVerificationRecord => ({
  email_domain,
  token: 'token',
  status,
  method: status === 'verified' ? 'dns_txt' : null,
  started_at: '2026-01-01T00:00:00.000Z',
  verified_at: status === 'verified' ? '2026-01-01T00:00:00.000Z' : null,
  last_failure: null,
});

/** Organizations as the read model holds them: only the fields routing reads. */
async function organizations() {
  const collection = new MemoryReadModelStore().collection('organizations');
  const documents = [
    {
      _id: 'production:verified',
      environment: 'production',
      allowed_email_domains: ['acme.com', 'acme.fr'],
      domain_verifications: [verification('acme.com', 'verified'), verification('acme.fr', 'pending')],
    },
    {
      _id: 'production:claimant',
      environment: 'production',
      allowed_email_domains: ['acme.com'],
      domain_verifications: [verification('acme.com', 'pending')],
    },
    { _id: 'sandbox:one', environment: 'sandbox', allowed_email_domains: ['acme.com'], domain_verifications: [] },
    { _id: 'sandbox:two', environment: 'sandbox', allowed_email_domains: ['acme.com'], domain_verifications: [] },
  ];
  for (const document of documents) await collection.upsert(document);
  return async (environment: 'sandbox' | 'production', emailDomain: string) =>
    (await collection.find(routingByEmailFilter(environment, emailDomain))).map(({ _id }) => _id).sort();
}

describe('routing by email', () => {
  it('finds in production only the organization that verified the domain', async () => {
    const find = await organizations();
    expect(await find('production', 'acme.com')).toEqual(['production:verified']);
  });

  it('finds no organization in production for a domain only pending there', async () => {
    const find = await organizations();
    expect(await find('production', 'acme.fr')).toEqual([]);
  });

  it('finds in sandbox every organization that allows the domain, verified or not', async () => {
    const find = await organizations();
    expect(await find('sandbox', 'acme.com')).toEqual(['sandbox:one', 'sandbox:two']);
  });
});
