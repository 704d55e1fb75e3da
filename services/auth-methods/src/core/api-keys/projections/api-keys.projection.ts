import type { ApiKeyEvent } from '@sesame/contracts';
import type { AggregateViewDefinition } from '@sesame/platform';
import { apiKeyDecider } from '../domain/api-key.decider';
import type { ApiKeyState } from '../domain/api-key.decider';

export const apiKeyStreamCategory = 'apiKey';

/** `api_keys_v1`: every API key (revoked ones too, so that they can be listed), by client id. */
export const apiKeysView: AggregateViewDefinition<ApiKeyState, ApiKeyEvent> = {
  name: 'api_keys',
  version: 1,
  category: apiKeyStreamCategory,
  decider: apiKeyDecider,
  isVisible: (state) => state.status !== 'empty',
};
