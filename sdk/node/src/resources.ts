import type { ArgsOf, BodyFor, ItemOf, Method, OperationOf, PathsOf, QueryFor, ResponseOf } from './operations';
import type { CursorIterator, PageIterator } from './pagination';

/** What the resource namespaces call: `Sesame.request` and `Sesame.paginate`. */
export interface Caller {
  request<M extends Method, P extends PathsOf<M>>(
    method: M,
    path: P,
    ...args: ArgsOf<OperationOf<P, M>>
  ): Promise<ResponseOf<OperationOf<P, M>>>;
  paginate<P extends PathsOf<'get'>>(path: P, ...args: ArgsOf<OperationOf<P, 'get'>>): PageIterator<ItemOf<P>>;
  paginateCursor<P extends PathsOf<'get'>>(path: P, ...args: ArgsOf<OperationOf<P, 'get'>>): CursorIterator<ItemOf<P>>;
  streamLines<P extends PathsOf<'get'>>(path: P, ...args: ArgsOf<OperationOf<P, 'get'>>): AsyncGenerator<unknown>;
}

/** An event of the events feed, as `GET /api/v2/events` and its export answer it. */
export type FeedEvent = ItemOf<'/api/v2/events'>;

const orgs = '/api/v2/organizations/{org_domain}';
const users = '/api/v2/org/{org_domain}/users';
const admins = '/api/v2/org/{org_domain}/admins';
const sso = '/api/v2/org/{org_domain}/sso-connection';
const dirSync = '/api/v2/org/{org_domain}/directory-sync';
const passwordConnection = '/api/v2/org/{org_domain}/password-connection';
const magicLinkConnection = '/api/v2/org/{org_domain}/magic-link-connection';
const totpConnection = '/api/v2/org/{org_domain}/totp-connection';

/**
 * Ergonomic wrappers of the main operations, one line each over the typed `request`: the paths,
 * parameters and bodies are the OpenAPI document's. Anything not here: `sesame.request(...)`.
 */
export function resourcesOf(api: Caller) {
  return {
    organizations: {
      create: (body: BodyFor<'/api/v2/organizations', 'post'>) => api.request('post', '/api/v2/organizations', { body }),
      list: (query: QueryFor<'/api/v2/organizations', 'get'> = {}) => api.paginate('/api/v2/organizations', { query }),
      get: (org_domain: string) => api.request('get', orgs, { params: { org_domain } }),
      update: (org_domain: string, body: BodyFor<typeof orgs, 'put'>) =>
        api.request('put', orgs, { params: { org_domain }, body }),
      delete: (org_domain: string) => api.request('delete', orgs, { params: { org_domain } }),
    },
    users: {
      create: (org_domain: string, body: BodyFor<typeof users, 'post'>) =>
        api.request('post', users, { params: { org_domain }, body }),
      list: (org_domain: string, query: QueryFor<typeof users, 'get'> = {}) =>
        api.paginate(users, { params: { org_domain }, query }),
      /** `id`: the user's id (uuid) or email. */
      get: (org_domain: string, id: string) => api.request('get', `${users}/{id}`, { params: { org_domain, id } }),
      update: (org_domain: string, id: string, body: BodyFor<`${typeof users}/{id}`, 'put'>) =>
        api.request('put', `${users}/{id}`, { params: { org_domain, id }, body }),
      delete: (org_domain: string, id: string) => api.request('delete', `${users}/{id}`, { params: { org_domain, id } }),
      addMetadata: (org_domain: string, id: string, body: BodyFor<`${typeof users}/{id}/add-metadata`, 'put'>) =>
        api.request('put', `${users}/{id}/add-metadata`, { params: { org_domain, id }, body }),
      removeMetadata: (org_domain: string, id: string, body: BodyFor<`${typeof users}/{id}/remove-metadata`, 'put'>) =>
        api.request('put', `${users}/{id}/remove-metadata`, { params: { org_domain, id }, body }),
    },
    admins: {
      invite: (org_domain: string, body: BodyFor<typeof admins, 'post'>) =>
        api.request('post', admins, { params: { org_domain }, body }),
      list: (org_domain: string) => api.paginate(admins, { params: { org_domain } }),
      get: (org_domain: string, email: string) => api.request('get', `${admins}/{email}`, { params: { org_domain, email } }),
      delete: (org_domain: string, email: string) =>
        api.request('delete', `${admins}/{email}`, { params: { org_domain, email } }),
    },
    redirectUris: {
      create: (body: BodyFor<'/api/v2/redirect_uris', 'post'>) => api.request('post', '/api/v2/redirect_uris', { body }),
      list: () => api.paginate('/api/v2/redirect_uris'),
      get: (id: string) => api.request('get', '/api/v2/redirect_uris/{id}', { params: { id } }),
      delete: (id: string) => api.request('delete', '/api/v2/redirect_uris/{id}', { params: { id } }),
      setDefault: (id: string) => api.request('put', '/api/v2/redirect_uris/{id}/set-as-default', { params: { id } }),
    },
    ssoConnections: {
      create: (org_domain: string, body: BodyFor<typeof sso, 'post'>) =>
        api.request('post', sso, { params: { org_domain }, body }),
      get: (org_domain: string) => api.request('get', sso, { params: { org_domain } }),
      update: (org_domain: string, body: BodyFor<typeof sso, 'put'>) => api.request('put', sso, { params: { org_domain }, body }),
      list: () => api.paginate('/api/v2/sso-connections'),
      challenge: (body: BodyFor<'/api/v2/sso-saml-challenge', 'post'>) =>
        api.request('post', '/api/v2/sso-saml-challenge', { body }),
    },
    directorySyncs: {
      create: (org_domain: string, body: BodyFor<typeof dirSync, 'post'>) =>
        api.request('post', dirSync, { params: { org_domain }, body }),
      get: (org_domain: string) => api.request('get', dirSync, { params: { org_domain } }),
      update: (org_domain: string, body: BodyFor<typeof dirSync, 'put'>) =>
        api.request('put', dirSync, { params: { org_domain }, body }),
    },
    passwords: {
      createConnection: (org_domain: string, body: BodyFor<typeof passwordConnection, 'post'>) =>
        api.request('post', passwordConnection, { params: { org_domain }, body }),
      getConnection: (org_domain: string) => api.request('get', passwordConnection, { params: { org_domain } }),
      updateConnection: (org_domain: string, body: BodyFor<typeof passwordConnection, 'put'>) =>
        api.request('put', passwordConnection, { params: { org_domain }, body }),
      /** Sets a user's password (`POST /api/v2/password`). */
      create: (body: BodyFor<'/api/v2/password', 'post'>) => api.request('post', '/api/v2/password', { body }),
      /** Signs a user in with email and password: answers a one-time `code` to exchange for tokens. */
      challenge: (body: BodyFor<'/api/v2/password-challenge', 'post'>) =>
        api.request('post', '/api/v2/password-challenge', { body }),
      /** Starts a password reset. */
      request: (body: BodyFor<'/api/v2/password-request', 'post'>) => api.request('post', '/api/v2/password-request', { body }),
    },
    magicLinks: {
      createConnection: (org_domain: string, body: BodyFor<typeof magicLinkConnection, 'post'>) =>
        api.request('post', magicLinkConnection, { params: { org_domain }, body }),
      getConnection: (org_domain: string) => api.request('get', magicLinkConnection, { params: { org_domain } }),
      updateConnection: (org_domain: string, body: BodyFor<typeof magicLinkConnection, 'put'>) =>
        api.request('put', magicLinkConnection, { params: { org_domain }, body }),
      /** Sends a sign-in link by email. */
      challenge: (body: BodyFor<'/api/v2/magic-link-challenge', 'post'>) =>
        api.request('post', '/api/v2/magic-link-challenge', { body }),
    },
    totp: {
      getConnection: (org_domain: string) => api.request('get', totpConnection, { params: { org_domain } }),
      updateConnection: (org_domain: string, body: BodyFor<typeof totpConnection, 'put'>) =>
        api.request('put', totpConnection, { params: { org_domain }, body }),
      enroll: (
        org_domain: string,
        user_id: string,
        body: BodyFor<'/api/v2/org/{org_domain}/totp-enrollment/{user_id}', 'post'>,
      ) => api.request('post', '/api/v2/org/{org_domain}/totp-enrollment/{user_id}', { params: { org_domain, user_id }, body }),
      /** Confirms an enrollment with the first code of the user's app (`?code=`). */
      validateEnrollment: (
        org_domain: string,
        user_id: string,
        query: QueryFor<'/api/v2/org/{org_domain}/totp-enrollment/validation/{user_id}', 'put'>,
      ) =>
        api.request('put', '/api/v2/org/{org_domain}/totp-enrollment/validation/{user_id}', {
          params: { org_domain, user_id },
          query,
        }),
      /** Starts a challenge (and texts the code when the user enrolled by SMS). */
      challenge: (org_domain: string, user_id: string) =>
        api.request('post', '/api/v2/org/{org_domain}/totp-challenge/{user_id}', { params: { org_domain, user_id } }),
      validateChallenge: (
        org_domain: string,
        user_id: string,
        body: BodyFor<'/api/v2/org/{org_domain}/totp-challenge/validation/{user_id}', 'put'>,
      ) =>
        api.request('put', '/api/v2/org/{org_domain}/totp-challenge/validation/{user_id}', {
          params: { org_domain, user_id },
          body,
        }),
    },
    webhooks: {
      create: (body: BodyFor<'/api/v2/webhooks', 'post'>) => api.request('post', '/api/v2/webhooks', { body }),
      list: (query: QueryFor<'/api/v2/webhooks', 'get'> = {}) => api.paginate('/api/v2/webhooks', { query }),
      get: (id: string) => api.request('get', '/api/v2/webhooks/{id}', { params: { id } }),
      update: (id: string, body: BodyFor<'/api/v2/webhooks/{id}', 'put'>) =>
        api.request('put', '/api/v2/webhooks/{id}', { params: { id }, body }),
      delete: (id: string) => api.request('delete', '/api/v2/webhooks/{id}', { params: { id } }),
      rotateSignatureKey: (id: string) => api.request('post', '/api/v2/webhooks/{id}/rotate-signature-key', { params: { id } }),
      /**
       * Delivers again the events of the webhook's codes kept in the feed, one page from `query.after`
       * (with their original `webhook-id`): call again with the answer's `list_metadata.after` while `has_more`.
       */
      replay: (id: string, query: QueryFor<'/api/v2/webhooks/{id}/replay', 'post'> = {}) =>
        api.request('post', '/api/v2/webhooks/{id}/replay', { params: { id }, query }),
    },
    events: {
      /** The public events of the key's environment, oldest first, every page from `query.after`. */
      list: (query: QueryFor<'/api/v2/events', 'get'> = {}) => api.paginateCursor('/api/v2/events', { query }),
      /**
       * The NDJSON export of a time range, one event at a time as the gateway streams it; an
       * interrupted export throws a `SesameStreamError` whose `after` resumes it (`query.after`).
       */
      export: (query: QueryFor<'/api/v2/events/export', 'get'>) =>
        api.streamLines('/api/v2/events/export', { query }) as AsyncGenerator<FeedEvent>,
    },
    webhookEvents: {
      list: (query: QueryFor<'/api/v2/webhook-events', 'get'> = {}) => api.paginate('/api/v2/webhook-events', { query }),
      triggerTest: (body: BodyFor<'/api/v2/webhook-events/trigger-test', 'post'>) =>
        api.request('post', '/api/v2/webhook-events/trigger-test', { body }),
      retry: (id: number) => api.request('post', '/api/v2/webhook-events/{id}/retry', { params: { id } }),
      cancel: (id: number) => api.request('post', '/api/v2/webhook-events/{id}/cancel', { params: { id } }),
    },
    relays: {
      create: (body: BodyFor<'/api/v2/relays', 'post'>) => api.request('post', '/api/v2/relays', { body }),
      list: () => api.paginate('/api/v2/relays'),
      get: (relay_id: string) => api.request('get', '/api/v2/relays/{relay_id}', { params: { relay_id } }),
      update: (relay_id: string, body: BodyFor<'/api/v2/relays/{relay_id}', 'put'>) =>
        api.request('put', '/api/v2/relays/{relay_id}', { params: { relay_id }, body }),
      delete: (relay_id: string) => api.request('delete', '/api/v2/relays/{relay_id}', { params: { relay_id } }),
      request: (relay_id: string, body: BodyFor<'/api/v2/relays/{relay_id}/request', 'post'>) =>
        api.request('post', '/api/v2/relays/{relay_id}/request', { params: { relay_id }, body }),
    },
    userMetakeys: {
      create: (body: BodyFor<'/api/v2/tokens/user-metakeys', 'post'>) =>
        api.request('post', '/api/v2/tokens/user-metakeys', { body }),
      list: (query: QueryFor<'/api/v2/tokens/user-metakeys', 'get'> = {}) =>
        api.paginate('/api/v2/tokens/user-metakeys', { query }),
      delete: (body: BodyFor<'/api/v2/tokens/user-metakeys', 'delete'>) =>
        api.request('delete', '/api/v2/tokens/user-metakeys', { body }),
    },
  };
}

export type Resources = ReturnType<typeof resourcesOf>;
