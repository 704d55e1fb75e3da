import { inspectInvitationResponseSchema, subjects } from '@sesame/contracts';
import type { Environment, RpcReply } from '@sesame/contracts';
import { ApiError } from '../http/api-error';

/** The organization and environment an IT-admin invitation acts for. */
export interface InvitationScope {
  organization_domain: string;
  environment: Environment;
}

/**
 * Authenticates the onboarding page's calls: identity (which stores the invitations) checks the
 * token; what it refuses (`422` on `token`: invalid, expired, declined) is the answer. What a
 * token may reach is its invitation's organization and environment, nothing else.
 */
export async function invitationScope(
  token: string,
  ask: (subject: string, input: unknown) => Promise<RpcReply>,
): Promise<InvitationScope> {
  const answer = await ask(subjects.identity.admins.inspectInvitation, { token });
  if (!answer.ok) throw new ApiError(answer.error);
  const invitation = inspectInvitationResponseSchema.parse(answer.body);
  return { organization_domain: invitation.organization.domain, environment: invitation.admin.__environment__ };
}
