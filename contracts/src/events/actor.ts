import { z } from '../zod';

/**
 * Who caused an event: an integrator's API key (its client id), a directory sync pushing SCIM
 * (its id), an identity provider through an SSO connection (the connection's id), an end user
 * (their id), a customer's IT admin through an onboarding invitation (the invitation's id), or
 * Sesame itself (the reacting service). From where: the client address and, where a browser is
 * involved, its user agent. Never a secret.
 */
export const actorTypes = ['api_key', 'directory_sync', 'sso_connection', 'user', 'it_admin', 'system'] as const;
export const actorTypeSchema = z.enum(actorTypes);
export type ActorType = z.infer<typeof actorTypeSchema>;

export const actorSchema = z.object({
  type: actorTypeSchema,
  id: z.string().min(1),
  ip: z.string().optional(),
  user_agent: z.string().optional(),
});
export type Actor = z.infer<typeof actorSchema>;

/** Who, without the where: what a service names when it records or asks on someone's behalf. */
export type ActorRef = Pick<Actor, 'type' | 'id'>;

/** Longest `User-Agent` kept on an actor; a longer one is cut. */
export const userAgentMaxLength = 512;
