import { z } from '../zod';
import { orgDomainParamsSchema } from '../common/inputs.schema';
import { booleanInputSchema, integerInputSchema } from '../common/primitives.schema';
import { totpChallengeSchema, totpConnectionSchema, totpEnrollmentSchema, totpMethods } from '../entities/auth-methods.schema';
import { pkceFields, pkcePair } from '../common/pkce.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import type { RateLimitRule } from './rate-limits';
import { totpExamples } from './totp.examples';

/** TOTP challenges and validations share one budget per user. */
const perUser: RateLimitRule[] = [{ limit: 'totp_user', by: ['params.user_id'] }];

export const totpExpiryMessage = 'must be between 30 and 900';
export const minTotpExpirySeconds = 30;
export const maxTotpExpirySeconds = 900;

export const updateTotpConnectionBodySchema = z
  .object({
    active: booleanInputSchema.optional(),
    method: z.enum(totpMethods).optional(),
    expiry_in_seconds: integerInputSchema
      .pipe(z.number().min(minTotpExpirySeconds, totpExpiryMessage).max(maxTotpExpirySeconds, totpExpiryMessage))
      .optional()
      .meta({ description: 'Lifetime of a code, 30 to 900 seconds (default 30 for the mobile app, 600 for SMS)' }),
  })
  .meta({ id: 'UpdateTotpConnectionRequest' });
export type UpdateTotpConnectionBody = z.infer<typeof updateTotpConnectionBodySchema>;

export const totpUserParamsSchema = orgDomainParamsSchema.extend({ user_id: z.uuid() });

export const createTotpEnrollmentBodySchema = z
  .object({
    force_enroll: booleanInputSchema
      .default(false)
      .meta({ description: 'Enroll again a user already enrolled: new secret and five recovery codes' }),
  })
  .meta({ id: 'CreateTotpEnrollmentRequest' });

/** The code a user typed: six digits, or one of their recovery codes (challenge validation only). */
export const totpCodeSchema = z.string().trim().min(1).max(64);
export const validateTotpEnrollmentQuerySchema = z.object({ code: totpCodeSchema });
export const validateTotpChallengeBodySchema = z
  .object({ code: totpCodeSchema.meta({ description: 'The six-digit code, or an unused recovery code' }), ...pkceFields })
  .superRefine(pkcePair)
  .meta({ id: 'ValidateTotpChallengeRequest' });

const totpDescription = 'Documented in the multi-factor authentication guide.';

export const getTotpConnection = defineOperation({
  operationId: 'getTotpConnection',
  method: 'get',
  path: '/api/v2/org/{org_domain}/totp-connection',
  tag: 'TOTP',
  summary: "Retrieve an organization's TOTP connection",
  description: 'Every organization has one, inactive by default.',
  auth: 'api_key',
  scope: 'connections:read',
  subject: subjects.authMethods.totp.getConnection,
  request: { params: orgDomainParamsSchema },
  response: { status: 200, description: 'The TOTP connection', schema: totpConnectionSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: totpExamples.getTotpConnection,
});

export const updateTotpConnection = defineOperation({
  operationId: 'updateTotpConnection',
  method: 'put',
  path: '/api/v2/org/{org_domain}/totp-connection',
  tag: 'TOTP',
  summary: "Update an organization's TOTP connection",
  description:
    'Switch TOTP on or off, choose the method and the lifetime of a code. Changing the method without `expiry_in_seconds` takes the default of the new method.',
  auth: 'api_key',
  scope: 'connections:write',
  subject: subjects.authMethods.totp.updateConnection,
  request: { params: orgDomainParamsSchema, body: updateTotpConnectionBodySchema },
  response: { status: 200, description: 'The TOTP connection', schema: totpConnectionSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: totpExamples.updateTotpConnection,
});

export const createTotpEnrollment = defineOperation({
  operationId: 'createTotpEnrollment',
  method: 'post',
  path: '/api/v2/org/{org_domain}/totp-enrollment/{user_id}',
  tag: 'TOTP',
  summary: 'Enroll a user in TOTP',
  description: `Answers \`uri\` (otpauth) for the mobile app method, \`first_verification_code\` for SMS; with \`force_enroll\`, five newline-separated \`recovery_codes\`, shown once. ${totpDescription}`,
  auth: 'api_key',
  scope: 'authentications:write',
  subject: subjects.authMethods.totp.enroll,
  request: { params: totpUserParamsSchema, body: createTotpEnrollmentBodySchema },
  response: { status: 201, description: 'The enrollment', schema: totpEnrollmentSchema },
  errors: ['unauthorized', 'resource_not_found', 'inactive_totp'],
  examples: totpExamples.createTotpEnrollment,
});

export const validateTotpEnrollment = defineOperation({
  operationId: 'validateTotpEnrollment',
  method: 'put',
  path: '/api/v2/org/{org_domain}/totp-enrollment/validation/{user_id}',
  tag: 'TOTP',
  summary: "Validate a user's TOTP enrollment",
  description: 'With the first code the user reads from their app (or SMS). A code is accepted once.',
  auth: 'api_key',
  scope: 'authentications:write',
  subject: subjects.authMethods.totp.validateEnrollment,
  request: { params: totpUserParamsSchema, query: validateTotpEnrollmentQuerySchema },
  response: { status: 200, description: 'The validated enrollment', schema: totpEnrollmentSchema },
  errors: ['unauthorized', 'resource_not_found', 'invalid_code', 'inactive_totp', 'too_many_requests'],
  rateLimits: perUser,
  examples: totpExamples.validateTotpEnrollment,
});

export const createTotpChallenge = defineOperation({
  operationId: 'createTotpChallenge',
  method: 'post',
  path: '/api/v2/org/{org_domain}/totp-challenge/{user_id}',
  tag: 'TOTP',
  summary: 'Challenge a user for a TOTP code',
  description:
    "With the SMS method the code is sent to the user's phone number (`sent_at`). `success` is false until validation.",
  auth: 'api_key',
  scope: 'authentications:write',
  subject: subjects.authMethods.totp.challenge,
  request: { params: totpUserParamsSchema },
  response: { status: 201, description: 'The challenge', schema: totpChallengeSchema },
  errors: ['unauthorized', 'resource_not_found', 'inactive_totp', 'authn_connection_not_allowed'],
  rateLimits: perUser,
  examples: totpExamples.createTotpChallenge,
});

export const validateTotpChallenge = defineOperation({
  operationId: 'validateTotpChallenge',
  method: 'put',
  path: '/api/v2/org/{org_domain}/totp-challenge/validation/{user_id}',
  tag: 'TOTP',
  summary: "Validate a user's TOTP challenge",
  description:
    'With the code the user typed, or one of their recovery codes; each is accepted once. Repeated wrong codes lock the user out for a while (429).',
  auth: 'api_key',
  scope: 'authentications:write',
  subject: subjects.authMethods.totp.validateChallenge,
  request: { params: totpUserParamsSchema, body: validateTotpChallengeBodySchema },
  response: { status: 200, description: 'The challenge, `success` true', schema: totpChallengeSchema },
  errors: [
    'unauthorized',
    'resource_not_found',
    'invalid_code',
    'inactive_totp',
    'too_many_requests',
    'authn_connection_not_allowed',
  ],
  rateLimits: perUser,
  examples: totpExamples.validateTotpChallenge,
});

export const totpOperations = [
  getTotpConnection,
  updateTotpConnection,
  createTotpEnrollment,
  validateTotpEnrollment,
  createTotpChallenge,
  validateTotpChallenge,
];
