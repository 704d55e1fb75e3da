import { z } from '../zod';
import { orgDomainParamsSchema } from '../common/inputs.schema';
import { getJwks } from '../operations/oauth.operations';
import { getOrganization } from '../operations/organizations.operations';
import { subjects } from '../subjects';
import { directorySyncRpc } from './directory-sync.rpc';
import { identityRpc } from './identity.rpc';
import { ssoRpc } from './sso.rpc';

/** The `query` or `body` of a public operation that has none. */
const noPart = z.object({});

/**
 * Every subject a service (or the gateway) calls on another one, with its request and response
 * schemas: the identity and SSO tables, and the public operations services also ask each other
 * (their input is the operation's `{ params, query, body }`). The platform's `TypedRpcClient`
 * takes its types from this table and validates both ways with it.
 */
export const rpcTable = {
  ...identityRpc,
  ...ssoRpc,
  ...directorySyncRpc,
  [subjects.identity.organizations.get]: {
    request: z.object({ params: orgDomainParamsSchema, query: noPart, body: noPart }),
    response: getOrganization.response.schema,
  },
  [subjects.authMethods.jwks]: {
    request: z.object({ params: noPart, query: noPart, body: noPart }),
    response: getJwks.response.schema,
  },
} as const;
export type RpcTable = typeof rpcTable;
export type RpcSubject = keyof RpcTable;
export type RpcCallInput<S extends RpcSubject> = z.input<RpcTable[S]['request']>;
export type RpcCallOutput<S extends RpcSubject> = z.output<RpcTable[S]['response']>;
