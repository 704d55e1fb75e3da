import type { Operation } from '@sesame/contracts';
import { scimSearchRequestUrn } from '@sesame/contracts';
import type { Kind } from './authorization-identifiers';

/** A field set by the override table: a value, computed at generation, taken from the world, or left out (null). */
export type FieldValue = unknown;
export const fromWorld = (kind: Kind) => ({ kind });

export interface Override {
  /** Named variants, each a set of fields; generation fills the rest. */
  variants?: Record<string, Record<string, FieldValue>>;
  /** Cells that do not apply to a variant, with the documented reason. */
  skips?: Record<string, Record<string, string>>;
  /** The owner's answer when the world already holds what the operation creates once per organization. */
  owner?: { status: number; body: unknown };
}

const scimUser = 'urn:ietf:params:scim:schemas:core:2.0:User';
const scimGroup = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
let counter = 0;
const fresh = (prefix: string) => () => `${prefix}-${Date.now().toString(36)}-${counter++}@fresh.matrix.example`;

/**
 * Only where generation cannot make a valid request: SCIM bodies (free-form in the contract,
 * validated by the directory-sync service against the SCIM schemas), the token endpoint (which
 * grant is a choice, not a schema) and `POST /password` (`password_code` replaces `user_email`,
 * a rule only its description states); and where the world already holds what an operation
 * creates once (the owner's request is then the duplicate refusal).
 */
const table: { operationId?: string; path?: RegExp; method?: string; override: Override }[] = [
  {
    path: /\/Users(\/\{id\})?$/,
    method: 'post|put',
    override: { variants: { '': { schemas: [scimUser], userName: fresh('scim'), active: true } } },
  },
  {
    path: /\/Groups(\/\{id\})?$/,
    method: 'post|put',
    override: { variants: { '': { schemas: [scimGroup], displayName: fresh('group') } } },
  },
  {
    path: /\/(Users|Groups)\/\{id\}$/,
    method: 'patch',
    override: {
      variants: { '': { schemas: [patchOp], Operations: [{ op: 'replace', path: 'displayName', value: 'Matrix patched' }] } },
    },
  },
  { path: /\.search$/, method: 'post', override: { variants: { '': { schemas: [scimSearchRequestUrn] } } } },
  {
    operationId: 'issueToken',
    override: {
      variants: {
        authorization_code: {
          grant_type: 'authorization_code',
          code: fromWorld('authorizationCode'),
          refresh_token: null,
          redirect_uri: null,
        },
        refresh_token: { grant_type: 'refresh_token', refresh_token: fromWorld('refreshToken'), code: null, redirect_uri: null },
        relay: { grant_type: 'relay', code: fromWorld('relayCode'), refresh_token: null, redirect_uri: null },
      },
      skips: {
        relay: { 'd:client_id': 'any API key of the relay’s environment may exchange its codes (issueToken description)' },
      },
    },
  },
  {
    operationId: 'createMagicLinkConnection',
    override: { owner: { status: 422, body: { errors: { org_domain: ['already has a magic link connection'] } } } },
  },
  {
    operationId: 'createTotpEnrollment',
    override: {
      owner: {
        status: 422,
        body: { errors: { force_enroll: ['must be true to enroll again a user whose enrollment is validated'] } },
      },
    },
  },
  {
    operationId: 'createPassword',
    override: {
      variants: {
        user_email: { password_code: null },
        password_code: { user_email: null, org_domain: null },
      },
    },
  },
];

export function overridesOf(operation: Operation): Override {
  const matching = table.filter(
    (entry) =>
      (entry.operationId === undefined || entry.operationId === operation.operationId) &&
      (entry.path === undefined || entry.path.test(operation.path)) &&
      (entry.method === undefined || entry.method.split('|').includes(operation.method)),
  );
  return matching.reduce<Override>((merged, entry) => ({ ...merged, ...entry.override }), {});
}
