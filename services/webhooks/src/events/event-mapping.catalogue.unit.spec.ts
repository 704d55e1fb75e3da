import type { RecordedEvent } from '@sesame/platform';
import { webhookEventCatalogue, webhookEventCodes } from '@sesame/contracts';
import type { WebhookEventCode } from '@sesame/contracts';
import { eventSources, publishedCodes } from './event-mapping';
import { productEvents } from './product-events.spec-kit';

const occurredAt = '2026-01-01T00:00:00.000Z';
const recorded = (stream: string, type: string, data: unknown, environment?: 'sandbox' | 'production'): RecordedEvent => ({
  id: 'e1',
  stream,
  revision: 0,
  type,
  data,
  metadata: { correlationId: 'c', actor: 'client-1', occurredAt, ...(environment ? { environment } : {}) },
});
const map = (source: string, event: RecordedEvent) => eventSources.find((item) => item.source === source)?.map(event) ?? null;
/** The public event expected for `code`: what the mapping adds around the data is always the same. */
const published = (code: WebhookEventCode, domain: string | null, environment: string, data: unknown) => ({
  id: 'e1',
  code,
  data,
  domain,
  environment,
  issued_at: occurredAt,
  client_id: 'client-1',
  description: webhookEventCatalogue[code],
});

describe('the webhook catalogue and the product events', () => {
  it('publishes every code of the catalogue from some product event, and no other code', () => {
    const unmapped = webhookEventCodes.filter((code) => !publishedCodes.has(code));
    expect(unmapped).toEqual([]);
    expect([...publishedCodes].sort()).toEqual([...webhookEventCodes].sort());
  });
});

describe('directory-sync events as webhook events', () => {
  const eventData = {
    change: 'created',
    directory_sync_id: 'd1',
    provider: 'okta',
    resource: { id: 's1', type: 'user', changes: { new_values: { userName: 'ada@acme.com' }, previous_values: {} } },
  };
  const scimResource = {
    kind: 'User',
    id: 's1',
    directory_sync_id: 'd1',
    organization_domain: 'acme',
    environment: 'production',
  };

  it.each([
    ['ScimUserProvisioned', 'directory_sync.user.provisioning.success'],
    ['ScimUserUpdated', 'directory_sync.user.update.success'],
    ['ScimUserDeactivated', 'directory_sync.user.deactivation.success'],
    ['ScimUserDeleted', 'directory_sync.user.deletion.success'],
    ['ScimGroupCreated', 'directory_sync.group.creation.success'],
    ['ScimGroupUpdated', 'directory_sync.group.update.success'],
    ['ScimGroupDeleted', 'directory_sync.group.deletion.success'],
  ] as const)('publishes %s as %s with the organization of its SCIM resource', (type, code) => {
    const event = recorded('scimResource-s1', type, { scim_resource: scimResource, event: eventData }, 'sandbox');
    expect(map('directory-sync', event)).toEqual(published(code, 'acme', 'production', eventData));
  });

  it('publishes a directory sync change without its token hash', () => {
    const directory = { id: 'd1', organization_domain: 'acme', environment: 'sandbox', token: { hash: 'h', hint: 'ab' } };
    const change = {
      ...eventData,
      resource: { id: 'd1', type: 'directory_sync', changes: { new_values: {}, previous_values: {} } },
    };
    for (const [type, code] of [
      ['DirectorySyncCreated', 'directory_sync.created'],
      ['DirectorySyncUpdated', 'directory_sync.updated'],
      ['DirectorySyncTokenRotated', 'directory_sync.token_rotated'],
    ] as const) {
      const event = recorded('directorySync-d1', type, { directory_sync: directory, event: change });
      expect(map('directory-sync', event)).toEqual(published(code, 'acme', 'sandbox', change));
    }
  });

  it('publishes an attributes mapping change for its environment, no organization', () => {
    const mapping = productEvents['directory_sync.attributes_mapping.updated'];
    const event = recorded('attributesMapping-sandbox', 'AttributesMappingChanged', { ...mapping.data, environment: 'sandbox' });
    expect(map('directory-sync', event)).toEqual(
      published('directory_sync.attributes_mapping.updated', null, 'sandbox', mapping.payload),
    );
  });

  it('publishes a refused SCIM user creation with the SCIM error', () => {
    const failure = {
      directory_sync_id: 'd1',
      provider: 'azure_ad',
      resource: { type: 'user', user_name: 'ada@acme.com', external_id: 'x1' },
      error: { status: 409, scim_type: 'uniqueness', detail: "The userName 'ada@acme.com' is already taken in this directory" },
    };
    const event = recorded('scimProvisioningFailure-f1', 'ScimUserProvisioningFailed', {
      organization_domain: 'acme',
      environment: 'production',
      event: failure,
      at: 'x',
    });
    expect(map('directory-sync', event)).toEqual(
      published('directory_sync.user.provisioning.failure', 'acme', 'production', failure),
    );
  });
});

describe('relay events as webhook events', () => {
  const relay = {
    id: 'r1',
    environment: 'production',
    organization_id: 'o2',
    partner_domain: 'partner',
    partner_redirect_uri: 'https://partner.example.com/cb',
    jit: false,
    session_duration_minutes: 60,
    inserted_at: 'x',
  };

  it.each([
    ['RelayCreated', 'relay.created'],
    ['RelayUpdated', 'relay.updated'],
    ['RelayDeleted', 'relay.deleted'],
  ] as const)('publishes %s as %s in the partner organization', (type, code) => {
    const event = recorded('relay-r1', type, { relay, at: 'x' }, 'sandbox');
    expect(map('auth-methods', event)).toEqual(published(code, 'partner', 'production', { relay }));
  });

  it('publishes a relay request without the hash of its code', () => {
    const event = recorded('relayCode-h', 'RelayCodeIssued', {
      code_hash: 'h',
      relay_id: 'r1',
      environment: 'sandbox',
      from_user_id: 'u1',
      from_organization_domain: 'acme',
      partner_domain: 'partner',
      partner_user_id: 'u2',
      partner_redirect_uri: 'https://partner.example.com/cb',
      session_duration_minutes: 60,
      expires_at: 'y',
      at: 'x',
    });
    expect(map('auth-methods', event)).toEqual(
      published('relay.request.created', 'partner', 'sandbox', {
        relay_id: 'r1',
        from_user_id: 'u1',
        from_organization_domain: 'acme',
        partner_domain: 'partner',
        partner_user_id: 'u2',
        partner_redirect_uri: 'https://partner.example.com/cb',
        session_duration_minutes: 60,
        expires_at: 'y',
      }),
    );
    expect(
      map('auth-methods', recorded('relayCode-h', 'RelayCodeRedeemed', { code_hash: 'h', client_id: null, at: 'x' })),
    ).toBeNull();
  });
});

describe('magic-link sign-ins as webhook events', () => {
  const session = {
    environment: 'production',
    organization_domain: 'acme',
    user_id: 'u1',
    client_id: 'client-1',
    scope: 'openid email profile',
    nonce: 'n',
    authenticated_at: 1767225600,
  };
  /** The session as published: its environment goes to `__environment__`, its nonce nowhere. */
  const publishedSession = {
    organization_domain: 'acme',
    user_id: 'u1',
    client_id: 'client-1',
    scope: 'openid email profile',
    authenticated_at: 1767225600,
    method: 'magic_link',
  };

  it('publishes the one-time code a magic link carries as a challenge created, without the code hash or nonce', () => {
    const event = recorded('authorizationCode-h', 'AuthorizationCodeIssued', {
      ...session,
      method: 'magic_link',
      code_hash: 'h',
      redirect_uri: 'https://app.acme.com/cb',
      expires_at: 'y',
      at: 'x',
    });
    expect(map('auth-methods', event)).toEqual(
      published('magic_link.challenge.created', 'acme', 'production', {
        ...publishedSession,
        redirect_uri: 'https://app.acme.com/cb',
        expires_at: 'y',
      }),
    );
  });

  // Regression: published from RefreshTokenFamilyStarted, which an exchange losing the race to
  // redeem the same code also records, so one sign-in could be published twice.
  it('publishes the redemption of a magic-link code (once per code) as a challenge succeeded, without the code hash', () => {
    const event = recorded('authorizationCode-h', 'AuthorizationCodeRedeemed', {
      ...session,
      method: 'magic_link',
      code_hash: 'h',
      family_id: 'f1',
      at: 'x',
    });
    expect(map('auth-methods', event)).toEqual(
      published('magic_link.challenge.succeeded', 'acme', 'production', {
        ...publishedSession,
        family_id: 'f1',
      }),
    );
  });

  it('publishes no refresh-token family, and no code issued nor redeemed for the other sign-in methods', () => {
    expect(
      map('auth-methods', recorded('refreshTokenFamily-f1', 'RefreshTokenFamilyStarted', { ...session, method: 'magic_link' })),
    ).toBeNull();
    for (const method of ['password', 'totp', 'sso', 'relay'])
      for (const type of ['AuthorizationCodeIssued', 'AuthorizationCodeRedeemed'])
        expect(map('auth-methods', recorded('authorizationCode-h', type, { ...session, method, code_hash: 'h' }))).toBeNull();
  });

  it('publishes nothing for a code redeemed before the redemption carried its session', () => {
    expect(
      map(
        'auth-methods',
        recorded('authorizationCode-h', 'AuthorizationCodeRedeemed', { code_hash: 'h', family_id: 'f1', at: 'x' }),
      ),
    ).toBeNull();
  });
});

describe('SSO sign-ins as webhook events', () => {
  const where = { organization_domain: 'acme', environment: 'production', sso_connection_id: 'c1' };
  const subject = { name_id: 'ada@acme.com', name_id_format: null, session_index: '_s1', email: 'ada@acme.com', user_id: 'u1' };

  it('publishes a completed sign-in with its organization and environment', () => {
    const event = recorded('ssoChallenge-r1', 'SsoChallengeCompleted', {
      ...where,
      request_id: 'r1',
      assertion_id: '_a1',
      subject,
      at: 'x',
    });
    expect(map('auth-methods', event)).toEqual(
      published('sso.login.succeeded', 'acme', 'production', {
        organization_domain: 'acme',
        sso_connection_id: 'c1',
        request_id: 'r1',
        assertion_id: '_a1',
        subject,
      }),
    );
  });

  it('publishes a refused sign-in with its reason code only', () => {
    const event = recorded('ssoChallenge-r1', 'SsoChallengeFailed', {
      ...where,
      request_id: 'r1',
      reason: 'signature_invalid',
      at: 'x',
    });
    expect(map('auth-methods', event)).toEqual(
      published('sso.login.failed', 'acme', 'production', {
        organization_domain: 'acme',
        sso_connection_id: 'c1',
        request_id: 'r1',
        reason: 'signature_invalid',
      }),
    );
  });

  it('publishes a connection update in its organization and environment', () => {
    const { settings } = productEvents['sso_connection.updated'].data;
    const event = recorded('ssoConnection-acme_production', 'SsoConnectionUpdated', {
      sp_id: 'acme_production',
      organization_domain: 'acme',
      environment: 'production',
      settings,
      idp: null,
      at: 'x',
    });
    expect(map('auth-methods', event)).toEqual(
      published('sso_connection.updated', 'acme', 'production', {
        sp_id: 'acme_production',
        organization_domain: 'acme',
        settings,
        idp: null,
      }),
    );
  });

  it("does not publish the onboarding page's test sign-ins, nor the challenge itself", () => {
    const test = { ...where, test: true, request_id: 'r1', at: 'x' };
    expect(
      map('auth-methods', recorded('ssoChallenge-r1', 'SsoChallengeCompleted', { ...test, subject, attributes: {} })),
    ).toBeNull();
    expect(map('auth-methods', recorded('ssoChallenge-r1', 'SsoChallengeFailed', { ...test, reason: 'x' }))).toBeNull();
    expect(map('auth-methods', recorded('ssoChallenge-r1', 'SsoChallengeIssued', { ...where, request_id: 'r1' }))).toBeNull();
  });
});

describe('password and TOTP events as webhook events', () => {
  const password = {
    hash: '$argon2id$h',
    pepper_kid: 'p1',
    pepper_epoch: 1,
    password_id: 'p2',
    user_id: 'u1',
    environment: 'sandbox',
    organization_domain: 'acme',
    at: 'x',
  };

  it("publishes a user's first password as created and a later one as updated, never the hash", () => {
    expect(map('auth-methods', recorded('password-u1', 'PasswordSet', { ...password, previous_password_id: null }))).toEqual(
      published('password.created', 'acme', 'sandbox', {
        password_id: 'p2',
        user_id: 'u1',
        organization_domain: 'acme',
        previous_password_id: null,
      }),
    );
    expect(map('auth-methods', recorded('password-u1', 'PasswordSet', { ...password, previous_password_id: 'p1' }))).toEqual(
      published('password.updated', 'acme', 'sandbox', {
        password_id: 'p2',
        user_id: 'u1',
        organization_domain: 'acme',
        previous_password_id: 'p1',
      }),
    );
  });

  it('publishes every successful password challenge with the email and tenant of its stream', () => {
    const event = recorded('passwordAttempts-production:acme:ada@acme.com', 'PasswordChallengeSucceeded', { at: 'x' }, 'sandbox');
    expect(map('auth-methods', event)).toEqual(
      published('password.challenge.succeeded', 'acme', 'production', { email: 'ada@acme.com' }),
    );
  });

  it('publishes TOTP events in the organization and environment of the enrollment, without steps, counters or hashes', () => {
    const where = { organization_domain: 'acme', environment: 'production' };
    const cases = [
      ['TotpEnrollmentValidated', 'totp.enrollment.validated', { user_id: 'u1', enrollment_nb: 1, step: 9, at: 'x' }],
      ['TotpChallengeCreated', 'totp.challenge.created', { user_id: 'u1', request_id: 'q1', counter: 4, sent_at: 'x', at: 'x' }],
      [
        'TotpChallengeSucceeded',
        'totp.challenge.succeeded',
        { user_id: 'u1', request_id: 'q1', step: 9, recovery_code_hash: 'h', at: 'x' },
      ],
      ['TotpCodeRejected', 'totp.challenge.failed', { user_id: 'u1', failed_attempts: 1, locked_until: null, at: 'x' }],
    ] as const;
    const secretFields = ['step', 'counter', 'recovery_code_hash', 'at', 'environment'];
    for (const [type, code, data] of cases) {
      const expected = Object.fromEntries(Object.entries({ ...where, ...data }).filter(([key]) => !secretFields.includes(key)));
      expect(map('auth-methods', recorded('totpEnrollment-u1', type, { ...where, ...data }, 'sandbox'))).toEqual(
        published(code, 'acme', 'production', expected),
      );
    }
  });
});
