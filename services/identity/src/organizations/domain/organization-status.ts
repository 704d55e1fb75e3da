import type { Organization } from '@sesame/contracts';
import type { OrganizationState } from './organization.decider';

type Stored = Exclude<OrganizationState, { status: 'empty' }>;

/**
 * What the services confirm usually takes them well under a second; an organization pending for
 * longer waits for a service that is down or behind, and is provisioned when it comes back.
 */
const secondsWhilePending = 1;

/**
 * The organization's provisioning status (SPEC.md section 4, with Cryptr's state names): `pending`
 * until every service it awaited at its creation confirmed it took it in, `progress_in_percentage`
 * being the share that did, then `terminated` (the provisioning finished; a deleted organization
 * is not answered at all).
 */
export function organizationStatus(state: Stored): Organization['status'] {
  if (state.status === 'deleted')
    return { state: 'terminated', errors: [], progress_in_percentage: 100, estimated_time_to_complete_in_seconds: 0 };
  const awaited = state.provisioners.length;
  const confirmed = state.provisioners.filter((service) => state.provisioned_by.includes(service)).length;
  const ready = confirmed === awaited;
  return {
    state: ready ? 'terminated' : 'pending',
    errors: [],
    progress_in_percentage: ready ? 100 : Math.floor((100 * confirmed) / awaited),
    estimated_time_to_complete_in_seconds: ready ? 0 : secondsWhilePending,
  };
}
