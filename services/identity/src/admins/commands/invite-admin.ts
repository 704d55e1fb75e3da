import { createHash, randomUUID } from 'node:crypto';
import { catalogueError } from '@sesame/contracts';
import type { Admin } from '@sesame/contracts';
import { DomainError, handleCommand, hashSecret, randomSecret } from '@sesame/platform';
import type { EventMetadata, Logger } from '@sesame/platform';
import type { Tenant } from '../../users/domain/user.decider';
import type { AdminsEnv } from '../admins.env';
import { adminDecider, toAdmin } from '../domain/admin.decider';
import type { StoredAdmin } from '../domain/admin.decider';
import { adminKey, adminStream } from '../projections/admins.projection';

const palette = ['#2563eb', '#7c3aed', '#db2777', '#dc2626', '#ea580c', '#ca8a04', '#16a34a', '#0891b2', '#4f46e5', '#9333ea'];
const colorFor = (email: string) =>
  palette[(createHash('sha256').update(email.toLowerCase()).digest()[0] as number) % palette.length] as string;

/** The invitation token: the admin id (to find the invitation) and a secret whose hash only is stored. */
export const invitationToken = (adminId: string, secret: string) => `${adminId}.${secret}`;
export function parseInvitationToken(token: string): { adminId: string; secret: string } | null {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{20,})$/.exec(token.trim());
  return match ? { adminId: match[1] as string, secret: match[2] as string } : null;
}

/**
 * Invites an IT admin (or invites again one who has not accepted: the previous link stops
 * working) and emails the invitation link through the mail port.
 */
export async function inviteAdmin(
  env: AdminsEnv,
  tenant: Tenant & { organization_name: string },
  email: string,
  metadata: EventMetadata,
  logger: Logger,
): Promise<Admin> {
  const secret = randomSecret(32);
  const now = env.now();
  const expiresAt = new Date(now.getTime() + env.invitationTtlMs).toISOString();
  const key = adminKey(tenant.organization_id, tenant.environment, email);
  const result = await handleCommand(
    env.commandDeps,
    adminDecider,
    adminStream(key),
    {
      type: 'InviteAdmin',
      data: {
        tenant,
        id: randomUUID(),
        email,
        color: colorFor(email),
        invitation_hash: hashSecret(secret),
        expires_at: expiresAt,
        at: now.toISOString(),
      },
    },
    metadata,
  );
  const admin = toAdmin(result.state as StoredAdmin);
  const link = `${env.onboardingUrl}?token=${encodeURIComponent(invitationToken(admin.id, secret))}`;
  try {
    await env.mailer.send({
      to: admin.email,
      subject: `You are invited to set up single sign-on for ${tenant.organization_name}`,
      text: [
        `Hello,`,
        ``,
        `You have been named the person in charge of single sign-on for ${tenant.organization_name} (${tenant.environment}).`,
        `Open this link to connect your identity provider, or to decline:`,
        ``,
        link,
        ``,
        `The link works once and expires on ${expiresAt}.`,
      ].join('\n'),
      html: `<p>Hello,</p><p>You have been named the person in charge of single sign-on for <strong>${escapeHtml(tenant.organization_name)}</strong> (${tenant.environment}).</p><p><a href="${escapeHtml(link)}">Set up single sign-on</a> (or decline).</p><p>The link works once and expires on ${expiresAt}.</p>`,
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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
