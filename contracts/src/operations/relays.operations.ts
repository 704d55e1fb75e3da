import { z } from '../zod';
import { deletedSchema, listSchema, pageQuerySchema } from '../common/pagination.schema';
import { booleanInputSchema, httpUrlSchema, integerInputSchema, listInputSchema } from '../common/primitives.schema';
import { relayRequestSchema, relaySchema } from '../entities/misc.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { relaysExamples } from './relays.examples';

/** One day at most; 60 minutes by default (SPEC.md section 9). */
export const relaySessionMinutes = { default: 60, min: 1, max: 1_440 } as const;

const relayFields = {
  source_organizations: listInputSchema(z.string().trim().min(1).max(100)).pipe(z.array(z.string()).max(100)).meta({
    description:
      'Domains of the organizations whose users may be relayed (each must exist); a user of any other organization is refused with 403 relay_source_not_allowed. Empty by default: nobody',
  }),
  partner_redirect_uri: httpUrlSchema.max(2_000).meta({ description: 'Where the partner receives `?code=...`' }),
  jit: booleanInputSchema.meta({ description: 'Create the user in the partner organization when absent (default false)' }),
  session_duration_minutes: integerInputSchema
    .pipe(z.number().min(relaySessionMinutes.min).max(relaySessionMinutes.max))
    .meta({ description: 'Lifetime of the partner tokens, in minutes (default 60)' }),
};

export const createRelayBodySchema = z
  .object({
    partner_domain: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .meta({ description: 'Domain of the partner organization: its allowed_email_domains must be empty' }),
    source_organizations: relayFields.source_organizations.optional(),
    partner_redirect_uri: relayFields.partner_redirect_uri,
    jit: relayFields.jit.optional(),
    session_duration_minutes: relayFields.session_duration_minutes.optional(),
  })
  .meta({ id: 'CreateRelayRequest' });
export type CreateRelayBody = z.infer<typeof createRelayBodySchema>;

export const updateRelayBodySchema = z
  .object({
    source_organizations: relayFields.source_organizations.optional(),
    partner_redirect_uri: relayFields.partner_redirect_uri.optional(),
    jit: relayFields.jit.optional(),
    session_duration_minutes: relayFields.session_duration_minutes.optional(),
  })
  .meta({ id: 'UpdateRelayRequest' });
export type UpdateRelayBody = z.infer<typeof updateRelayBodySchema>;

export const relayParamsSchema = z.object({ relay_id: z.uuid() });
/** Checked by the service, which answers `missing_relay_id` / `missing_access_token` (SPEC.md section 8). */
export const relayRequestParamsSchema = z.object({ relay_id: z.string().max(100) });
export const relayRequestBodySchema = z
  .object({
    access_token: z.string().max(10_000).optional().meta({ description: 'The current access token of the user to relay' }),
  })
  .meta({ id: 'RelayRequestRequest' });

export const relayListSchema = listSchema(relaySchema, 'RelayList');
export const relayDeletedSchema = deletedSchema(relaySchema, 'RelayDeleted');

export const createRelay = defineOperation({
  operationId: 'createRelay',
  method: 'post',
  path: '/api/v2/relays',
  tag: 'Token',
  summary: 'Create a relay to a partner organization',
  description:
    'A relay signs a user of your application into a partner organization (whose `allowed_email_domains` must be empty).',
  auth: 'api_key',
  scope: 'tokens:write',
  subject: subjects.authMethods.relays.create,
  request: { body: createRelayBodySchema },
  response: { status: 201, description: 'The relay', schema: relaySchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: relaysExamples.createRelay,
});

export const listRelays = defineOperation({
  operationId: 'listRelays',
  method: 'get',
  path: '/api/v2/relays',
  tag: 'Token',
  summary: 'List relays',
  auth: 'api_key',
  scope: 'tokens:read',
  subject: subjects.authMethods.relays.list,
  request: { query: pageQuerySchema },
  response: { status: 200, description: 'A page of relays, oldest first', schema: relayListSchema },
  errors: ['unauthorized'],
  examples: relaysExamples.listRelays,
});

export const getRelay = defineOperation({
  operationId: 'getRelay',
  method: 'get',
  path: '/api/v2/relays/{relay_id}',
  tag: 'Token',
  summary: 'Retrieve a relay',
  auth: 'api_key',
  scope: 'tokens:read',
  subject: subjects.authMethods.relays.get,
  request: { params: relayParamsSchema },
  response: { status: 200, description: 'The relay', schema: relaySchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: relaysExamples.getRelay,
});

export const updateRelay = defineOperation({
  operationId: 'updateRelay',
  method: 'put',
  path: '/api/v2/relays/{relay_id}',
  tag: 'Token',
  summary: 'Update a relay',
  auth: 'api_key',
  scope: 'tokens:write',
  subject: subjects.authMethods.relays.update,
  request: { params: relayParamsSchema, body: updateRelayBodySchema },
  response: { status: 200, description: 'The relay', schema: relaySchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: relaysExamples.updateRelay,
});

export const deleteRelay = defineOperation({
  operationId: 'deleteRelay',
  method: 'delete',
  path: '/api/v2/relays/{relay_id}',
  tag: 'Token',
  summary: 'Delete a relay',
  auth: 'api_key',
  scope: 'tokens:write',
  subject: subjects.authMethods.relays.delete,
  request: { params: relayParamsSchema },
  response: { status: 200, description: 'The deleted relay', schema: relayDeletedSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: relaysExamples.deleteRelay,
});

export const requestRelay = defineOperation({
  operationId: 'requestRelay',
  method: 'post',
  path: '/api/v2/relays/{relay_id}/request',
  tag: 'Token',
  summary: 'Relay a signed-in user to the partner',
  description:
    "With the user's current `access_token`, answers `relay_uri`: the partner redirect URI with a one-time `code` (valid 2 minutes) that the partner exchanges at `POST /oauth/token` with `grant_type=relay` for tokens of the same user in the partner organization, created just in time when the relay has `jit`. The user's organization must be one of the relay's `source_organizations` (403 `relay_source_not_allowed`). An existing partner account with the user's email is used only when an earlier relay linked it to this user (identity `relay`) or the user's email is verified, and not when it is an unverified account relays link to other users (403 `relay_account_not_linked`).",
  auth: 'api_key',
  scope: 'tokens:write',
  subject: subjects.authMethods.relays.request,
  request: { params: relayRequestParamsSchema, body: relayRequestBodySchema },
  response: { status: 201, description: 'The relay request', schema: relayRequestSchema },
  errors: [
    'unauthorized',
    'missing_relay_id',
    'missing_access_token',
    'relay_source_not_allowed',
    'relay_account_not_linked',
    'user_limit_reached',
  ],
  examples: relaysExamples.requestRelay,
});

export const relayOperations = [createRelay, listRelays, getRelay, updateRelay, deleteRelay, requestRelay];
