import type { RecordedEvent } from '@sesame/platform';
import { eventSources } from './event-mapping';
import { productEvents } from './product-events.spec-kit';

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
  it('takes the organization and its environment of organization events from their stream', () => {
    const event = recorded('organization-production:acme', 'OrganizationUpdated', { changes: { color: '#fff' }, at: 'x' });
    expect(map('identity', event)).toMatchObject({
      code: 'organization.updated',
      domain: 'acme',
      environment: 'production',
      data: { changes: { color: '#fff' } },
    });
  });

  it('publishes an organization deletion without its environment field, in that environment', () => {
    const event = recorded('organization-sandbox:acme', 'OrganizationDeleted', {
      domain: 'acme',
      environment: 'sandbox',
      at: 'x',
    });
    expect(map('identity', event)).toMatchObject({ code: 'organization.deleted', domain: 'acme', environment: 'sandbox' });
    expect(map('identity', event)?.data).toEqual({ domain: 'acme' });
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

  it('ignores internal events', () => {
    expect(map('identity', recorded('unique-x', 'UniqueValueReserved', {}))).toBeNull();
    expect(map('identity', recorded('organization-sandbox:acme', 'OrganizationProvisioningConfirmed', {}))).toBeNull();
  });
});

describe('auth-methods events as webhook events', () => {
  it('ignores the events of API keys', () => {
    expect(map('auth-methods', recorded('apiKey-x', 'ApiKeyCreated', { environment: 'sandbox' }))).toBeNull();
  });
});

describe('password events as webhook events', () => {
  it('does not publish a rehash of a password', () => {
    expect(map('auth-methods', recorded('password-u1', 'PasswordRehashed', { hash: 'h', at: 'x' }))).toBeNull();
  });

  it('reads the tenant and email of a challenge from its stream', () => {
    const event = recorded('passwordAttempts-production:acme:ada@acme.com', 'PasswordChallengeFailed', { at: 'x' });
    expect(map('auth-methods', event)).toMatchObject({
      code: 'password.challenge.failed',
      domain: 'acme',
      environment: 'production',
      data: { email: 'ada@acme.com' },
    });
    const updated = recorded('passwordConnection-sandbox:acme', 'PasswordConnectionUpdated', {
      ...productEvents['password_connection.updated'].data,
      active: false,
    });
    expect(map('auth-methods', updated)).toMatchObject({
      code: 'password_connection.updated',
      domain: 'acme',
      data: { active: false },
    });
  });

  it("publishes a password connection's id, the one its API resource answers", () => {
    const id = '5b0c7e2a-1d3f-5a4b-8c6d-7e8f9a0b1c2d';
    const settings = { active: true, plain_text_min_length: 8, plain_text_max_length: 128, pepper_rotation_period: 86_400 };
    const created = recorded('passwordConnection-sandbox:acme', 'PasswordConnectionCreated', {
      id,
      ...settings,
      environment: 'sandbox',
      organization_domain: 'acme',
      at: 'x',
    });
    expect(map('auth-methods', created)).toMatchObject({
      code: 'password_connection.created',
      domain: 'acme',
      data: { id, ...settings, organization_domain: 'acme' },
    });
    const updated = recorded('passwordConnection-sandbox:acme', 'PasswordConnectionUpdated', { id, ...settings, at: 'x' });
    expect(map('auth-methods', updated)).toMatchObject({ code: 'password_connection.updated', data: { id } });
  });

  it('never publishes a reset code hash', () => {
    const event = recorded('passwordCode-abc', 'PasswordCodeIssued', {
      code_hash: 'h',
      reason: 'reset',
      request_id: 'r1',
      user_id: 'u1',
      environment: 'sandbox',
      organization_domain: 'acme',
      redirect_uri: null,
      expires_at: 'y',
      at: 'x',
    });
    expect(map('auth-methods', event)).toMatchObject({ code: 'password.request.created', data: { request_id: 'r1' } });
    expect(map('auth-methods', event)?.data).not.toHaveProperty('code_hash');
  });

  it('does not take a metakey name for an organization', () => {
    const event = recorded('userMetakey-sandbox:plan', 'UserMetakeyCreated', {
      ...productEvents['user_metakey.created'].data,
      environment: 'sandbox',
    });
    expect(map('identity', event)).toMatchObject({ code: 'user_metakey.created', domain: null, environment: 'sandbox' });
  });
});

describe('TOTP and magic-link events as webhook events', () => {
  it('publishes an enrollment without its secret or recovery code hashes', () => {
    const event = recorded('totpEnrollment-u1', 'TotpEnrolled', {
      organization_id: 'o1',
      organization_domain: 'acme',
      environment: 'sandbox',
      user_id: 'u1',
      email: 'ada@acme.com',
      method: 'sms',
      period: 600,
      encrypted_secret: 'v1.k.iv.tag.secret',
      first_counter: 3,
      enrollment_nb: 1,
      recovery_code_hashes: ['h1'],
      at: 'x',
    });
    const published = map('auth-methods', event);
    expect(published).toMatchObject({ code: 'totp.enrollment.created', domain: 'acme', environment: 'sandbox' });
    expect(JSON.stringify(published)).not.toMatch(/secret|h1|first_counter/);
  });

  it('publishes challenges in the environment of the API key that made them', () => {
    const event = recorded('totpEnrollment-u1', 'TotpCodeRejected', {
      user_id: 'u1',
      failed_attempts: 2,
      locked_until: null,
      at: 'x',
    });
    expect(map('auth-methods', event)).toMatchObject({
      code: 'totp.challenge.failed',
      domain: null,
      environment: 'sandbox',
      data: { user_id: 'u1', failed_attempts: 2 },
    });
    const connection = recorded(
      'magicLinkConnection-x',
      'MagicLinkConnectionUpdated',
      productEvents['magic_link_connection.updated'].data,
    );
    expect(map('auth-methods', connection)).toMatchObject({
      code: 'magic_link_connection.updated',
      domain: 'acme',
      environment: 'production',
    });
  });
});
