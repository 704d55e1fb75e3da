import {
  deleteAdmin,
  getAdmin,
  inviteAdmin,
  listAdmins,
  onboardingScopeSchema,
  onboardingSessionCredentialSchema,
  openAdminInvitation,
  recordAdminLoginRequestSchema,
  revokeAdminOnboarding,
  subjects,
} from '@sesame/contracts';
import type { Mailer } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { IdentityConfig } from '../config';
import type { OrganizationsDeps } from '../organizations/organizations.deps';
import { adminsDeps } from './admins.deps';
import * as handlers from './commands/admin.handlers';
import { getAdminHandler, listAdminsHandler, onboardingSessionHandler } from './queries/admin.queries';

/** IT admins: invitations by email, the onboarding session an invitation link opens (the onboarding page's calls), the admin API. */
export function registerAdmins(
  runtime: ServiceRuntime,
  config: IdentityConfig,
  organizations: OrganizationsDeps,
  mailer: Mailer,
) {
  const deps = adminsDeps(runtime, config, organizations, mailer);
  const { router } = runtime;
  const admins = subjects.identity.admins;
  router.operation(inviteAdmin, handlers.inviteAdminHandler(deps));
  router.operation(listAdmins, listAdminsHandler(deps));
  router.operation(getAdmin, getAdminHandler(deps));
  router.operation(deleteAdmin, handlers.deleteAdminHandler(deps));
  router.operation(revokeAdminOnboarding, handlers.revokeAdminOnboardingHandler(deps));
  router.operation(openAdminInvitation, handlers.openAdminInvitationHandler(deps));
  router.on(
    admins.authenticateOnboardingSession,
    handlers.authenticateOnboardingSessionHandler(deps),
    onboardingSessionCredentialSchema,
  );
  router.on(admins.onboardingSession, onboardingSessionHandler(deps), onboardingScopeSchema);
  router.on(admins.acceptInvitation, handlers.answerInvitationHandler(deps, 'accept'), onboardingScopeSchema);
  router.on(admins.declineInvitation, handlers.answerInvitationHandler(deps, 'decline'), onboardingScopeSchema);
  router.on(admins.recordLogin, handlers.recordAdminLoginHandler(deps), recordAdminLoginRequestSchema);
  return deps;
}
