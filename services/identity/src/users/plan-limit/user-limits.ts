import type { Environment } from '@sesame/contracts';

/**
 * The plan's limits on the number of users (deployment settings, null: unlimited): one for all
 * the organizations of each environment, and one per organization domain that holds in each
 * environment on its own. A user is created only when both its environment and its organization
 * have room.
 */
export interface UserLimits {
  environments: Record<Environment, number | null>;
  organizations: Record<string, number>;
}

export const unlimitedUsers: UserLimits = { environments: { sandbox: null, production: null }, organizations: {} };

/** `acme.com=10,beta.io=5` (spaces around entries allowed) → `{ 'acme.com': 10, 'beta.io': 5 }`; null when malformed. */
export function parseOrganizationLimits(value: string): Record<string, number> | null {
  const limits: Record<string, number> = {};
  for (const entry of value.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const match = /^([^=\s]+)\s*=\s*(\d{1,9})$/.exec(entry);
    if (!match || match[1]!.toLowerCase() in limits) return null;
    limits[match[1]!.toLowerCase()] = Number(match[2]);
  }
  return limits;
}
