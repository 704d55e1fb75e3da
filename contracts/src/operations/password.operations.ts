import { z } from '../zod';
import { booleanInputSchema, httpUrlSchema, integerInputSchema } from '../common/primitives.schema';
import { orgDomainParamsSchema } from '../common/inputs.schema';
import { pkceFields, pkcePair } from '../common/pkce.schema';
import {
  passwordChallengeSchema,
  passwordConnectionSchema,
  passwordRequestSchema,
  passwordSchema,
} from '../entities/auth-methods.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { perIp } from './rate-limits';
import { emailInputSchema } from './users.operations';
import { passwordExamples } from './password.examples';

/** Longest password accepted at all (a connection may ask for less): argon2 input stays small. */
export const maxPasswordLength = 1_024;

export const passwordConnectionBodySchema = z
  .object({
    active: booleanInputSchema.optional(),
    plain_text_min_length: integerInputSchema.pipe(z.number().min(1).max(maxPasswordLength)).optional(),
    plain_text_max_length: integerInputSchema.pipe(z.number().min(1).max(maxPasswordLength)).optional(),
    pepper_rotation_period: integerInputSchema
      .pipe(z.number().min(3_600).max(31_536_000))
      .optional()
      .meta({ description: 'Seconds between two pepper rotations (passwords are rehashed at their next sign-in)' }),
  })
  .meta({ id: 'PasswordConnectionRequest' });
export type PasswordConnectionBody = z.infer<typeof passwordConnectionBodySchema>;

const orgDomainField = z.string().trim().min(1).max(100).optional().meta({
  description: 'Required when no organization, or several, allow the domain of the email',
});
const plainTextField = z.string().min(1).max(maxPasswordLength);

export const createPasswordBodySchema = z
  .object({
    org_domain: orgDomainField,
    user_email: emailInputSchema.optional(),
    password_code: z.string().min(1).max(200).optional().meta({
      description: 'From a password reset link or a challenge answering `renew_password`; replaces `user_email`',
    }),
    plain_text: plainTextField,
    ...pkceFields,
  })
  .superRefine(pkcePair)
  .meta({ id: 'PasswordCreateRequest' });

export const passwordChallengeBodySchema = z
  .object({
    org_domain: orgDomainField,
    user_email: emailInputSchema,
    plain_text: plainTextField,
    redirect_uri: httpUrlSchema.optional(),
    nonce: z.string().min(1).max(255).optional(),
    ...pkceFields,
  })
  .superRefine(pkcePair)
  .meta({ id: 'PasswordChallengeRequest' });

export const passwordRequestBodySchema = z
  .object({
    org_domain: orgDomainField,
    user_email: emailInputSchema,
    redirect_uri: httpUrlSchema.optional().meta({
      description:
        'Where the reset link sends the user, with `password_code`: a redirect URI registered in the environment (`/api/v2/redirect_uris`), the default one when left out',
    }),
    find_or_create_user: booleanInputSchema.default(false),
  })
  .meta({ id: 'PasswordRequestRequest' });

export const getPasswordConnection = defineOperation({
  operationId: 'getPasswordConnection',
  method: 'get',
  path: '/api/v2/org/{org_domain}/password-connection',
  tag: 'Password',
  summary: 'Retrieve the password connection of an organization',
  description: 'An organization that never configured it has the defaults: active, 8 to 128 characters, pepper rotated daily.',
  auth: 'api_key',
  scope: 'connections:read',
  subject: subjects.authMethods.password.getConnection,
  request: { params: orgDomainParamsSchema },
  response: { status: 200, description: 'The connection', schema: passwordConnectionSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: passwordExamples.getPasswordConnection,
});

export const createPasswordConnection = defineOperation({
  operationId: 'createPasswordConnection',
  method: 'post',
  path: '/api/v2/org/{org_domain}/password-connection',
  tag: 'Password',
  summary: 'Create the password connection of an organization',
  description: 'One per organization and environment; `plain_text_min_length` must be lower than `plain_text_max_length`.',
  auth: 'api_key',
  scope: 'connections:write',
  subject: subjects.authMethods.password.createConnection,
  request: { params: orgDomainParamsSchema, body: passwordConnectionBodySchema },
  response: { status: 201, description: 'The created connection', schema: passwordConnectionSchema },
  errors: ['unauthorized', 'resource_not_found', 'password_connection_already_exists'],
  examples: passwordExamples.createPasswordConnection,
});

export const updatePasswordConnection = defineOperation({
  operationId: 'updatePasswordConnection',
  method: 'put',
  path: '/api/v2/org/{org_domain}/password-connection',
  tag: 'Password',
  summary: 'Update the password connection of an organization',
  description: 'Only the given fields change. `active: false` refuses password sign-in for the organization.',
  auth: 'api_key',
  scope: 'connections:write',
  subject: subjects.authMethods.password.updateConnection,
  request: { params: orgDomainParamsSchema, body: passwordConnectionBodySchema },
  response: { status: 200, description: 'The updated connection', schema: passwordConnectionSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: passwordExamples.updatePasswordConnection,
});

export const createPassword = defineOperation({
  operationId: 'createPassword',
  method: 'post',
  path: '/api/v2/password',
  tag: 'Password',
  summary: 'Set a password',
  description:
    'Sets the password of the user with `user_email` (created when absent, which needs `users:write`; `code` is null), or of the user a `password_code` was given for (the code works once; `code` is then a one-time authorization code for `POST /oauth/token`). A user who already has a password gets a new one only with a `password_code` (from a reset link or a renewal) or with a key holding `passwords:write`; otherwise 401 `unauthorized`, and nothing changes. Refused with a field error on `plain_text` when shorter or longer than the connection allows, among the 10,000 most common passwords, found in the breached-password list, or too weak.',
  auth: 'api_key',
  scope: 'authentications:write',
  subject: subjects.authMethods.password.create,
  request: { body: createPasswordBodySchema },
  response: { status: 201, description: 'The password', schema: passwordSchema },
  errors: ['unauthorized', 'unknown_password_code', 'resource_not_found', 'authn_connection_not_allowed', 'user_limit_reached'],
  examples: passwordExamples.createPassword,
});

export const createPasswordChallenge = defineOperation({
  operationId: 'createPasswordChallenge',
  method: 'post',
  path: '/api/v2/password-challenge',
  tag: 'Password',
  summary: 'Check a password',
  description:
    'When `valid?` is true, `code` is a one-time authorization code for `POST /oauth/token`, or, with `renew_password` true, a `password_code` to set a new password first (the password no longer meets the connection’s rules). When false, `error` says why: `invalid_credentials` (also for an unknown email), `too_many_attempts` (repeated failures delay, then lock, further attempts) or `inactive_password_connection`.',
  auth: 'api_key',
  scope: 'authentications:write',
  subject: subjects.authMethods.password.challenge,
  request: { body: passwordChallengeBodySchema },
  response: { status: 200, description: 'The challenge', schema: passwordChallengeSchema },
  errors: ['unauthorized', 'resource_not_found', 'authn_connection_not_allowed'],
  rateLimits: [{ limit: 'password_challenge_email', by: ['body.user_email', 'body.org_domain'] }, perIp('password_ip')],
  examples: passwordExamples.createPasswordChallenge,
});

export const createPasswordRequest = defineOperation({
  operationId: 'createPasswordRequest',
  method: 'post',
  path: '/api/v2/password-request',
  tag: 'Password',
  summary: 'Send a password reset link',
  description:
    'Emails the user a link to `redirect_uri` (a registered redirect URI of the environment, the default one when left out; another answers 422 on `redirect_uri`) carrying a one-time `password_code` (valid one hour) to send with the new password to `POST /api/v2/password`. The answer carries the link in `magic_link` for a sandbox key only: with a production key it is null, the link reaching the user by email alone. With `find_or_create_user` (which needs `users:write`), an unknown user is created; otherwise nothing is sent to an unknown email and `user_id` and `magic_link` are null.',
  auth: 'api_key',
  scope: 'authentications:write',
  subject: subjects.authMethods.password.request,
  request: { body: passwordRequestBodySchema },
  response: { status: 201, description: 'The request', schema: passwordRequestSchema },
  errors: ['unauthorized', 'resource_not_found', 'authn_connection_not_allowed', 'user_limit_reached'],
  rateLimits: [{ limit: 'password_request_email', by: ['body.user_email', 'body.org_domain'] }, perIp('password_ip')],
  examples: passwordExamples.createPasswordRequest,
});

export const passwordOperations = [
  getPasswordConnection,
  createPasswordConnection,
  updatePasswordConnection,
  createPassword,
  createPasswordChallenge,
  createPasswordRequest,
];
