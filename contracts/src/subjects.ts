/**
 * NATS subjects, relative to the deployment prefix (`SESAME_PREFIX`, e.g. `sesame`):
 * the wire subject is `<prefix>.<subject>`. Each service answers its own subjects in a queue
 * group named after the service.
 */
export const serviceNames = ['identity', 'auth-methods', 'directory-sync', 'webhooks'] as const;
export type ServiceName = (typeof serviceNames)[number];

export const subjects = {
  health: (service: ServiceName) => `${service}.health`,
  identity: {
    organizations: {
      create: 'identity.organizations.create',
      list: 'identity.organizations.list',
      get: 'identity.organizations.get',
      update: 'identity.organizations.update',
      delete: 'identity.organizations.delete',
      /**
       * The organization a sign-in (password, magic link) is for: `org_domain` when given, else the
       * only one allowing the email's domain; 422 on `org_domain` when none or several do.
       */
      forSignIn: 'identity.organizations.for-sign-in',
      /** Verified email domains (DNS TXT record or vendor assertion): list, start, verify, assert. */
      domains: {
        list: 'identity.organizations.domains.list',
        start: 'identity.organizations.domains.start',
        verify: 'identity.organizations.domains.verify',
        assert: 'identity.organizations.domains.assert',
        /** The onboarding page's calls, with the scope of a checked session. */
        onboardingList: 'identity.organizations.domains.onboarding-list',
        onboardingStart: 'identity.organizations.domains.onboarding-start',
        onboardingVerify: 'identity.organizations.domains.onboarding-verify',
      },
    },
    /**
     * Users. The first seven serve HTTP operations (environment from the API key). The others
     * are for services (SSO, magic link, password, SCIM): the environment is in the request
     * body. Request and response schemas of every subject: `identityRpc` in
     * `contracts/src/rpc/identity.rpc.ts`.
     */
    users: {
      create: 'identity.users.create',
      list: 'identity.users.list',
      get: 'identity.users.get',
      update: 'identity.users.update',
      delete: 'identity.users.delete',
      erase: 'identity.users.erase',
      addMetadata: 'identity.users.add-metadata',
      removeMetadata: 'identity.users.remove-metadata',
      /** Find a user by id in an organization and environment: `{ user }` or `{ user: null }`. */
      findById: 'identity.users.find-by-id',
      /** Find a user by email (case-insensitive) in an organization and environment. */
      findByEmail: 'identity.users.find-by-email',
      /** Create a user (SSO and SCIM provisioning, magic link `find_or_create_user`). */
      provision: 'identity.users.provision',
      /** The user with this email, created when absent: `{ user, created }`. */
      findOrCreate: 'identity.users.find-or-create',
      /** Change fields of a user (SCIM PUT/PATCH), with the rules of the public update. */
      modify: 'identity.users.modify',
      /** Set `active` false (SCIM deprovisioning); the `UserDeactivated` event follows. */
      deactivate: 'identity.users.deactivate',
      /** Delete a user (SCIM DELETE). */
      remove: 'identity.users.remove',
      /** Record a sign-in through an identity provider and refresh the profile it owns. */
      recordIdentity: 'identity.users.record-identity',
      /** A page of users of an organization and environment, filtered. */
      search: 'identity.users.search',
      /** The plan's limit on the number of users of the environment (and an organization): limit, used, remaining. */
      limit: 'identity.users.limit',
      /** How many users of an organization and environment match a filter. */
      count: 'identity.users.count',
    },
    userMetakeys: {
      create: 'identity.user-metakeys.create',
      list: 'identity.user-metakeys.list',
      delete: 'identity.user-metakeys.delete',
      /** The registered (not locked) user metakeys of an environment: the custom claims of ID tokens. */
      active: 'identity.user-metakeys.active',
    },
    redirectUris: {
      create: 'identity.redirect-uris.create',
      list: 'identity.redirect-uris.list',
      get: 'identity.redirect-uris.get',
      delete: 'identity.redirect-uris.delete',
      setDefault: 'identity.redirect-uris.set-default',
      /** Whether a URL is a registered redirect URI of an environment, and the default one. */
      check: 'identity.redirect-uris.check',
    },
    admins: {
      invite: 'identity.admins.invite',
      list: 'identity.admins.list',
      get: 'identity.admins.get',
      delete: 'identity.admins.delete',
      /** Vendor: end the onboarding session and void a link not opened yet. */
      revokeOnboarding: 'identity.admins.revoke-onboarding',
      /** The onboarding page opens the invitation link (HTTP): uses it up, opens a session, records `last_login_at`. */
      openInvitation: 'identity.admins.open-invitation',
      /**
       * The gateway checks an onboarding session cookie before each call of the onboarding page:
       * answers its scope (organization, environment, admin, session) and pushes back its idle expiry.
       */
      authenticateOnboardingSession: 'identity.admins.authenticate-onboarding-session',
      /** The onboarding page's calls, with the scope of a checked session. */
      onboardingSession: 'identity.admins.onboarding-session',
      acceptInvitation: 'identity.admins.accept-invitation',
      declineInvitation: 'identity.admins.decline-invitation',
      /** Record that an admin signed in (`last_login_at`). */
      recordLogin: 'identity.admins.record-login',
    },
    /** Groups for directory sync (no public HTTP route yet). */
    groups: {
      create: 'identity.groups.create',
      get: 'identity.groups.get',
      list: 'identity.groups.list',
      update: 'identity.groups.update',
      addMembers: 'identity.groups.add-members',
      removeMembers: 'identity.groups.remove-members',
      delete: 'identity.groups.delete',
    },
    /** Development mode only: the messages of the local mail outbox. */
    devOutbox: 'identity.dev.outbox',
    /** Development mode only: the text messages of the local SMS outbox. */
    devSmsOutbox: 'identity.dev.sms-outbox',
  },
  directorySync: {
    syncs: {
      get: 'directory-sync.syncs.get',
      create: 'directory-sync.syncs.create',
      update: 'directory-sync.syncs.update',
    },
    /** The IT-admin onboarding page's directory sync, with the organization and environment of the admin's invitation. */
    onboarding: {
      find: 'directory-sync.onboarding.find',
      setUp: 'directory-sync.onboarding.set-up',
      rotateToken: 'directory-sync.onboarding.rotate-token',
      status: 'directory-sync.onboarding.status',
    },
    attributesMapping: {
      get: 'directory-sync.attributes-mapping.get',
      put: 'directory-sync.attributes-mapping.put',
    },
    /** SCIM 2.0 endpoints of a directory sync (RFC 7644), authenticated by its bearer token. */
    scim: {
      serviceProviderConfig: 'directory-sync.scim.service-provider-config',
      resourceTypes: 'directory-sync.scim.resource-types',
      resourceType: 'directory-sync.scim.resource-type',
      schemas: 'directory-sync.scim.schemas',
      schema: 'directory-sync.scim.schema',
      search: 'directory-sync.scim.search',
      users: {
        create: 'directory-sync.scim.users.create',
        list: 'directory-sync.scim.users.list',
        search: 'directory-sync.scim.users.search',
        get: 'directory-sync.scim.users.get',
        replace: 'directory-sync.scim.users.replace',
        patch: 'directory-sync.scim.users.patch',
        delete: 'directory-sync.scim.users.delete',
      },
      groups: {
        create: 'directory-sync.scim.groups.create',
        list: 'directory-sync.scim.groups.list',
        search: 'directory-sync.scim.groups.search',
        get: 'directory-sync.scim.groups.get',
        replace: 'directory-sync.scim.groups.replace',
        patch: 'directory-sync.scim.groups.patch',
        delete: 'directory-sync.scim.groups.delete',
      },
    },
  },
  authMethods: {
    token: 'auth-methods.oauth.token',
    password: {
      getConnection: 'auth-methods.password.connection.get',
      createConnection: 'auth-methods.password.connection.create',
      updateConnection: 'auth-methods.password.connection.update',
      create: 'auth-methods.password.create',
      challenge: 'auth-methods.password.challenge',
      request: 'auth-methods.password.request',
    },
    jwks: 'auth-methods.jwks.get',
    apiKeys: {
      create: 'auth-methods.api-keys.create',
      list: 'auth-methods.api-keys.list',
      revoke: 'auth-methods.api-keys.revoke',
    },
    relays: {
      create: 'auth-methods.relays.create',
      list: 'auth-methods.relays.list',
      get: 'auth-methods.relays.get',
      update: 'auth-methods.relays.update',
      delete: 'auth-methods.relays.delete',
      request: 'auth-methods.relays.request',
    },
    magicLink: {
      getConnection: 'auth-methods.magic-link.connection.get',
      createConnection: 'auth-methods.magic-link.connection.create',
      updateConnection: 'auth-methods.magic-link.connection.update',
      challenge: 'auth-methods.magic-link.challenge.create',
    },
    totp: {
      getConnection: 'auth-methods.totp.connection.get',
      updateConnection: 'auth-methods.totp.connection.update',
      enroll: 'auth-methods.totp.enrollment.create',
      validateEnrollment: 'auth-methods.totp.enrollment.validate',
      challenge: 'auth-methods.totp.challenge.create',
      validateChallenge: 'auth-methods.totp.challenge.validate',
    },
    /** SAML SSO: request and response schemas of the service subjects in `contracts/src/rpc/sso.rpc.ts`. */
    sso: {
      get: 'auth-methods.sso-connections.get',
      create: 'auth-methods.sso-connections.create',
      update: 'auth-methods.sso-connections.update',
      list: 'auth-methods.sso-connections.list',
      /** Our SP metadata document (XML) of a connection. */
      spMetadata: 'auth-methods.sso.sp-metadata',
      /** `POST /api/v2/sso-saml-challenge`: start an SP-initiated sign-in. */
      challenge: 'auth-methods.sso.challenge',
      /** Browser: redirect to the IdP with a signed AuthnRequest. */
      authorize: 'auth-methods.sso.authorize',
      /** Browser: the IdP posts its response (Assertion Consumer Service). */
      acs: 'auth-methods.sso.acs',
      /** Browser: the OIDC identity provider redirects back with an authorization code. */
      oidcCallback: 'auth-methods.sso.oidc-callback',
      /** `POST /api/v2/sso-saml-logout`: start an SP-initiated single logout. */
      logout: 'auth-methods.sso.logout',
      /** Browser: redirect to the IdP with a signed LogoutRequest. */
      logoutRedirect: 'auth-methods.sso.logout-redirect',
      /** Browser: the IdP's logout requests and responses (single logout), Redirect and POST bindings. */
      sloGet: 'auth-methods.sso.slo.get',
      sloPost: 'auth-methods.sso.slo.post',
      /** For services (the onboarding page): the connection of an organization and environment, or null. */
      find: 'auth-methods.sso-connections.find',
      /** For services: create or update the connection of an organization and environment. */
      configure: 'auth-methods.sso-connections.configure',
      /** For services (onboarding page): start a test sign-in whose browser comes back to `return_url`. */
      testSignIn: 'auth-methods.sso.test-sign-in',
      /** For services: the outcome of a test sign-in (attributes the IdP sent, or why it was refused). */
      testResult: 'auth-methods.sso.test-result',
      /** For services: our SP values (ACS URL, entity id, metadata URL...) even before a connection exists. */
      spSettings: 'auth-methods.sso-connections.sp-settings',
    },
  },
  webhooks: {
    webhooks: {
      create: 'webhooks.webhooks.create',
      list: 'webhooks.webhooks.list',
      get: 'webhooks.webhooks.get',
      update: 'webhooks.webhooks.update',
      delete: 'webhooks.webhooks.delete',
      rotateSignatureKey: 'webhooks.webhooks.rotate-signature-key',
      replay: 'webhooks.webhooks.replay',
    },
    /** Delivery jobs (`WebhookEvent`); not `webhooks.events.*`, the subjects of the service's event store. */
    webhookEvents: {
      list: 'webhooks.webhook-events.list',
      triggerTest: 'webhooks.webhook-events.trigger-test',
      retry: 'webhooks.webhook-events.retry',
      cancel: 'webhooks.webhook-events.cancel',
    },
    /** The public events feed (`GET /api/v2/events`); not `webhooks.events.*`, the subjects of the service's event store. */
    events: {
      list: 'webhooks.event-feed.list',
      /** One page of `GET /api/v2/events/export`: the gateway streams them. */
      exportPage: 'webhooks.event-feed.export-page',
    },
  },
} as const;

export const wireSubject = (prefix: string, subject: string) => `${prefix}.${subject}`;

/** The JetStream subject prefix of one service's event store (`<prefix>.<service>`). */
export const eventSubjectPrefix = (prefix: string, service: ServiceName) => `${prefix}.${service}`;
