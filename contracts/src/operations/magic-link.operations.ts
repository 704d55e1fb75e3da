import { z } from '../zod';
import { optionalNullable, orgDomainParamsSchema } from '../common/inputs.schema';
import { pkceFields, pkcePair } from '../common/pkce.schema';
import { booleanInputSchema } from '../common/primitives.schema';
import { magicLinkChallengeSchema, magicLinkConnectionSchema } from '../entities/auth-methods.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { perIp } from './rate-limits';
import { magicLinkExamples } from './magic-link.examples';

const magicLinkConnectionFields = {
  active: booleanInputSchema.optional(),
  find_or_create_user: booleanInputSchema
    .optional()
    .meta({ description: 'Create a user for an email unknown to the organization at its first sign-in (default false)' }),
  sign_in_template_id: optionalNullable(z.string().trim().min(1).max(200)),
};

export const createMagicLinkConnectionBodySchema = z
  .object(magicLinkConnectionFields)
  .meta({ id: 'CreateMagicLinkConnectionRequest' });
export const updateMagicLinkConnectionBodySchema = z
  .object(magicLinkConnectionFields)
  .meta({ id: 'UpdateMagicLinkConnectionRequest' });
export type MagicLinkConnectionChanges = z.infer<typeof updateMagicLinkConnectionBodySchema>;

const emailField = z.string().trim().min(1).max(254);
const emailAliasMessage = 'must be the same as email when both are given (user_email is another name for email)';

/**
 * `user_email`, the name Cryptr's Kotlin SDK sends, read as `email`: both given must agree, one
 * of them is required. The body then carries `email` only.
 */
function readEmailAlias<Body extends { email?: string; user_email?: string }>(body: Body, context: z.RefinementCtx) {
  const { user_email, ...rest } = body;
  const email = rest.email ?? user_email;
  if (email === undefined || (user_email !== undefined && user_email !== email)) {
    const path = email === undefined ? ['email'] : ['user_email'];
    context.addIssue({ code: 'custom', path, message: email === undefined ? "can't be blank" : emailAliasMessage });
    return z.NEVER;
  }
  return { ...rest, email };
}

export const createMagicLinkChallengeBodySchema = z
  .object({
    email: emailField.optional().meta({ description: "The user's email; required unless `user_email` is given" }),
    user_email: emailField.optional().meta({
      description: "Another name for `email` (Cryptr's Kotlin SDK sends it); when both are given they must be the same",
    }),
    redirect_uri: z.string().trim().min(1).max(2_000).optional().meta({
      description: "A registered redirect URI; the environment's default one when absent",
    }),
    org_domain: z.string().min(1).max(100).optional().meta({
      description: "Required when the email's domain is not an allowed email domain of exactly one organization",
    }),
    find_or_create_user: booleanInputSchema
      .optional()
      .meta({ description: "Overrides the connection's setting for this request" }),
    ...pkceFields,
  })
  .superRefine(pkcePair)
  .transform(readEmailAlias)
  .meta({ id: 'CreateMagicLinkChallengeRequest' });

export const getMagicLinkConnection = defineOperation({
  operationId: 'getMagicLinkConnection',
  method: 'get',
  path: '/api/v2/org/{org_domain}/magic-link-connection',
  tag: 'Magic Link',
  summary: "Retrieve an organization's magic link connection",
  auth: 'api_key',
  scope: 'connections:read',
  subject: subjects.authMethods.magicLink.getConnection,
  request: { params: orgDomainParamsSchema },
  response: { status: 200, description: 'The magic link connection', schema: magicLinkConnectionSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: magicLinkExamples.getMagicLinkConnection,
});

export const createMagicLinkConnection = defineOperation({
  operationId: 'createMagicLinkConnection',
  method: 'post',
  path: '/api/v2/org/{org_domain}/magic-link-connection',
  tag: 'Magic Link',
  summary: 'Create the magic link connection of an organization',
  description: 'One per organization and environment; `active` defaults to true, `find_or_create_user` to false.',
  auth: 'api_key',
  scope: 'connections:write',
  subject: subjects.authMethods.magicLink.createConnection,
  request: { params: orgDomainParamsSchema, body: createMagicLinkConnectionBodySchema },
  response: { status: 201, description: 'The magic link connection', schema: magicLinkConnectionSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: magicLinkExamples.createMagicLinkConnection,
});

export const updateMagicLinkConnection = defineOperation({
  operationId: 'updateMagicLinkConnection',
  method: 'put',
  path: '/api/v2/org/{org_domain}/magic-link-connection',
  tag: 'Magic Link',
  summary: "Update an organization's magic link connection",
  auth: 'api_key',
  scope: 'connections:write',
  subject: subjects.authMethods.magicLink.updateConnection,
  request: { params: orgDomainParamsSchema, body: updateMagicLinkConnectionBodySchema },
  response: { status: 200, description: 'The magic link connection', schema: magicLinkConnectionSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: magicLinkExamples.updateMagicLinkConnection,
});

export const createMagicLinkChallenge = defineOperation({
  operationId: 'createMagicLinkChallenge',
  method: 'post',
  path: '/api/v2/magic-link-challenge',
  tag: 'Magic Link',
  summary: 'Send a magic link',
  description:
    'Emails the user a one-time link to `redirect_uri?code=...`; the code is exchanged at `POST /oauth/token` (`grant_type=authorization_code`), once, within 10 minutes. The answer is the same whether or not the email belongs to a user (no email is sent to an unknown address unless `find_or_create_user` applies). In a sandbox environment the answer also shows `code` and `magic_link`; in production both are null.',
  auth: 'api_key',
  scope: 'authentications:write',
  subject: subjects.authMethods.magicLink.challenge,
  request: { body: createMagicLinkChallengeBodySchema },
  response: { status: 201, description: 'The challenge', schema: magicLinkChallengeSchema },
  errors: ['unauthorized', 'resource_not_found', 'authn_connection_not_allowed', 'user_limit_reached'],
  rateLimits: [{ limit: 'magic_link_email', by: ['body.email'] }, perIp('magic_link_ip')],
  examples: magicLinkExamples.createMagicLinkChallenge,
});

export const magicLinkOperations = [
  getMagicLinkConnection,
  createMagicLinkConnection,
  updateMagicLinkConnection,
  createMagicLinkChallenge,
];
