import type { SsoChallengeEvent } from '@sesame/contracts';
import type { AggregateViewDefinition } from '@sesame/platform';
import { ssoChallengeDecider } from '../domain/sso-challenge.decider';
import type { SsoChallengeState } from '../domain/sso-challenge.decider';

export const ssoChallengeCategory = 'ssoChallenge';

/** `sso_sign_ins_v1`: completed SAML sign-ins (their SAML sessions), for single logout. */
export const ssoSignInsView: AggregateViewDefinition<SsoChallengeState, SsoChallengeEvent> = {
  name: 'sso_sign_ins',
  version: 1,
  category: ssoChallengeCategory,
  decider: ssoChallengeDecider,
  isVisible: (state) => state.status === 'completed',
  indexes: [['sp_id']],
};
