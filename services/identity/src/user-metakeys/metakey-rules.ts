import type { Environment } from '@sesame/contracts';
import type { MetakeyRules } from '../users/domain/user-fields';
import { userMetakeyKey } from './projections/user-metakeys.projection';
import type { StoredUserMetakey, UserMetakeysDeps } from './user-metakeys.deps';

/**
 * The registered keys a user write must respect. The keys it writes are read from their
 * streams (a key locked a moment ago on another replica is refused); the required keys a new
 * user must carry come from the read model.
 */
export async function metakeyRules(
  deps: Pick<UserMetakeysDeps, 'metakeys' | 'view'>,
  environment: Environment,
  touched: string[],
  creating: boolean,
): Promise<MetakeyRules> {
  const rules: MetakeyRules = {};
  if (creating) {
    const required = await deps.view.documents.find({ environment, required: true, status: 'active' });
    for (const key of required as StoredUserMetakey[]) rules[key.name] = { type: key.type, required: true, locked: false };
  }
  await Promise.all(
    [...new Set(touched)].map(async (name) => {
      const { state } = await deps.metakeys.load(userMetakeyKey(environment, name));
      if (state.status === 'active' || state.status === 'locked')
        rules[name] = { type: state.type, required: state.required, locked: state.status === 'locked' };
      else delete rules[name];
    }),
  );
  return rules;
}
