import { createHash, randomUUID } from 'node:crypto';
import { catalogueError } from '@sesame/contracts';
import type { Admin, OnboardingSetup } from '@sesame/contracts';
import { DomainError, hashSecret, randomSecret, renderMessage } from '@sesame/platform';
import type { EventMetadata, Logger, MessageAudience } from '@sesame/platform';
import type { Tenant } from '../../users/domain/user.decider';
import type { AdminsDeps } from '../admins.deps';
import { toAdmin } from '../domain/admin.decider';
import type { StoredAdmin } from '../domain/admin.decider';
import { adminKey } from '../projections/admins.projection';

const palette = ['#2563eb', '#7c3aed', '#db2777', '#dc2626', '#ea580c', '#ca8a04', '#16a34a', '#0891b2', '#4f46e5', '#9333ea'];
const colorFor = (email: string) =>
  palette[(createHash('sha256').update(email.toLowerCase()).digest()[0] as number) % palette.length] as string;

/**
 * A secret credential of an admin: the admin id (to find the invitation) and a secret whose hash
 * only is stored. The emailed link's token and the onboarding session's cookie have this shape.
 */
export const adminCredential = (adminId: string, secret: string) => `${adminId}.${secret}`;
export function parseAdminCredential(credential: string): { adminId: string; secret: string } | null {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{20,})$/.exec(credential.trim());
  return match ? { adminId: match[1] as string, secret: match[2] as string } : null;
}

/**
 * Invites an IT admin (or invites again: the previous link and any onboarding session stop
 * working) and emails the invitation link through the mail port.
 */
export async function inviteAdmin(
  deps: AdminsDeps,
  tenant: Tenant & { organization_name: string; audience: MessageAudience },
  invitation: { email: string; allowed_setups: OnboardingSetup[] },
  metadata: EventMetadata,
  logger: Logger,
): Promise<Admin> {
  const secret = randomSecret(32);
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + deps.times.link_ttl_ms).toISOString();
  const { email, allowed_setups } = invitation;
  const key = adminKey(tenant.organization_id, tenant.environment, email);
  const result = await deps.admins.handle(
    key,
    {
      type: 'InviteAdmin',
      data: {
        tenant,
        id: randomUUID(),
        email,
        color: colorFor(email),
        invitation_hash: hashSecret(secret),
        expires_at: expiresAt,
        allowed_setups,
        at: now.toISOString(),
      },
    },
    metadata,
  );
  const admin = toAdmin(result.state as StoredAdmin);
  const link = `${deps.onboardingUrl}?token=${encodeURIComponent(adminCredential(admin.id, secret))}`;
  const mail = renderMessage(deps.messages, 'admin-invitation', tenant.audience, {
    organization: tenant.organization_name,
    environment: tenant.environment,
    link,
    expires_at: new Date(expiresAt),
    link_ttl: { durationMs: deps.times.link_ttl_ms },
    session_idle: { durationMs: deps.times.session_idle_ms },
    session_max: { durationMs: deps.times.session_max_ms },
  });
  try {
    await deps.mailer.send({
      to: admin.email,
      subject: mail.subject as string,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
      links: [{ rel: 'admin-invitation', url: link }],
      tags: ['admin-invitation', tenant.organization_domain, tenant.environment],
    });
  } catch (error) {
    logger.error({ err: error, admin: admin.id }, 'admin invitation email could not be sent');
    throw new DomainError(
      catalogueError(
        'service_unavailable',
        'The invitation is saved but its email could not be sent: invite the admin again to resend it',
      ),
    );
  }
  return admin;
}
