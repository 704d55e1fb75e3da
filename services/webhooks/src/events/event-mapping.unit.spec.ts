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
      const published = map('identity', recorded('organization-sandbox:acme', type, { environment: 'sandbox' }));
      expect(published && isWebhookEventCode(published.code)).toBe(true);
    }
  });
});

describe('auth-methods events as webhook events', () => {
  it('publishes an SSO connection without its SP private keys (signing and encryption)', () => {
    const event = recorded('ssoConnection-sp1', 'SsoConnectionCreated', {
      id: 'c1',
      sp_id: 'sp1',
      organization_domain: 'acme',
      environment: 'sandbox',
      settings: { active: true },
      idp: null,
      sp_key: { certificate_pem: 'c', encrypted_private_key_pem: 'k' },
      sp_encryption_key: { certificate_pem: 'c2', encrypted_private_key_pem: 'k2' },
      at: 'x',
    });
    const published = map('auth-methods', event);
    expect(published).toMatchObject({ code: 'sso_connection.created', domain: 'acme', environment: 'sandbox' });
    expect(published?.data).not.toHaveProperty('sp_key');
    expect(JSON.stringify(published)).not.toMatch(/encrypted_private_key|"k2?"/);
    expect(map('auth-methods', recorded('apiKey-x', 'ApiKeyCreated', { environment: 'sandbox' }))).toBeNull();
  });
});

describe('password events as webhook events', () => {
  it('publishes a password set without its hash or pepper', () => {
    const event = recorded('password-u1', 'PasswordSet', {
      hash: '$argon2id$...',
      pepper_kid: 'p1',
      pepper_epoch: 3,
      password_id: 'p1',
      user_id: 'u1',
      environment: 'sandbox',
      organization_domain: 'acme',
      at: 'x',
    });
    expect(map('auth-methods', event)).toMatchObject({
      code: 'password.created',
      domain: 'acme',
      environment: 'sandbox',
      data: { password_id: 'p1', user_id: 'u1', organization_domain: 'acme' },
    });
    expect(Object.keys(map('auth-methods', event)?.data as object).sort()).toEqual([
      'organization_domain',
      'password_id',
      'user_id',
    ]);
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
    const updated = recorded('passwordConnection-sandbox:acme', 'PasswordConnectionUpdated', { active: false, at: 'x' });
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
      environment: 'sandbox',
      metakey: { name: 'plan' },
      at: 'x',
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
    const connection = recorded('magicLinkConnection-x', 'MagicLinkConnectionUpdated', {
      organization_id: 'o1',
      organization_domain: 'acme',
      environment: 'production',
      connection: { active: true },
      at: 'x',
    });
    expect(map('auth-methods', connection)).toMatchObject({
      code: 'magic_link_connection.updated',
      domain: 'acme',
      environment: 'production',
    });
  });
});
