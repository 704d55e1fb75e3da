import type { RecordedEvent } from '@sesame/platform';
import { isWebhookEventCode } from '@sesame/contracts';
import { eventSources } from './event-mapping';

const metadata = {
  correlationId: 'c',
  environment: 'sandbox' as const,
  actor: 'client-1',
  occurredAt: '2026-01-01T00:00:00.000Z',
};
const recorded = (stream: string, type: string, data: unknown): RecordedEvent => ({
  id: 'e1',
  stream,
  revision: 0,
  type,
  data,
  metadata,
});
const map = (source: string, event: RecordedEvent) => eventSources.find((item) => item.source === source)?.map(event) ?? null;

describe('product events as webhook events', () => {
  it('publishes a user event with its organization, without internal fields', () => {
    const event = recorded('user-u1', 'UserCreated', {
      organization_domain: 'acme',
      organization_id: 'o1',
      environment: 'production',
      at: '2026-01-01T00:00:00.000Z',
      user: { id: 'u1', email: 'ada@acme.com' },
      source: 'api',
      profile_owners: { given_name: 'saml.okta' },
    });
    expect(map('identity', event)).toEqual({
      id: 'e1',
      code: 'user.created',
      data: { organization_domain: 'acme', organization_id: 'o1', user: { id: 'u1', email: 'ada@acme.com' }, source: 'api' },
      domain: 'acme',
      environment: 'production',
      issued_at: '2026-01-01T00:00:00.000Z',
      client_id: 'client-1',
      description: 'A user was created (API, SSO, SCIM, magic link or password)',
    });
  });

  it('takes the organization of organization events from their stream, the environment from the metadata', () => {
    const event = recorded('organization-acme', 'OrganizationUpdated', { changes: { color: '#fff' }, at: 'x' });
    expect(map('identity', event)).toMatchObject({
      code: 'organization.updated',
      domain: 'acme',
      environment: 'sandbox',
      data: { changes: { color: '#fff' } },
    });
  });

  it('never publishes an invitation token hash', () => {
    const event = recorded('admin-k', 'AdminInvited', {
      organization_domain: 'acme',
      environment: 'sandbox',
      admin: { email: 'it@acme.com' },
      invitation_hash: 'h',
    });
    expect(map('identity', event)?.data).not.toHaveProperty('invitation_hash');
  });

  it('publishes the EventData of directory-sync events', () => {
    const eventData = {
      change: 'created',
      directory_sync_id: 'd1',
      provider: 'okta',
      resource: { id: 'd1', type: 'directory_sync', changes: { new_values: {}, previous_values: {} } },
    };
    const event = recorded('directorySync-d1', 'DirectorySyncCreated', {
      directory_sync: { id: 'd1', organization_domain: 'acme', environment: 'production' },
      event: eventData,
    });
    expect(map('directory-sync', event)).toMatchObject({
      code: 'directory_sync.created',
      domain: 'acme',
      environment: 'production',
      data: eventData,
    });
  });

  it('ignores internal events, and every mapped code is in the catalogue', () => {
    expect(map('identity', recorded('unique-x', 'UniqueValueReserved', {}))).toBeNull();
    for (const type of [
      'OrganizationCreated',
      'UserDeleted',
      'GroupRenamed',
      'RedirectUriAdded',
      'UserMetakeyDeleted',
      'AdminRemoved',
    ]) {
      const published = map('identity', recorded('organization-acme', type, { environment: 'sandbox' }));
      expect(published && isWebhookEventCode(published.code)).toBe(true);
    }
  });
});

describe('auth-methods events as webhook events', () => {
  it('publishes an SSO connection without its SP private key', () => {
    const event = recorded('ssoConnection-sp1', 'SsoConnectionCreated', {
      id: 'c1',
      sp_id: 'sp1',
      organization_domain: 'acme',
      environment: 'sandbox',
      settings: { active: true },
      idp: null,
      sp_key: { certificate_pem: 'c', encrypted_private_key_pem: 'k' },
      at: 'x',
    });
    const published = map('auth-methods', event);
    expect(published).toMatchObject({ code: 'sso_connection.created', domain: 'acme', environment: 'sandbox' });
    expect(published?.data).not.toHaveProperty('sp_key');
    expect(map('auth-methods', recorded('apiKey-x', 'ApiKeyCreated', { environment: 'sandbox' }))).toBeNull();
  });
});
