import type { ApiKeyEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { Aggregate, AggregateType } from '@sesame/platform';
import { apiKeyDecider } from './domain/api-key.decider';
import type { ApiKeyCommand, ApiKeyState } from './domain/api-key.decider';
import { apiKeyStreamCategory } from './projections/api-keys.projection';

/** An API key, named by its client id (a uuid). */
export const apiKeyAggregate: AggregateType<ApiKeyState, ApiKeyCommand, ApiKeyEvent> = {
  decider: apiKeyDecider,
  stream: (clientId) => streamName(apiKeyStreamCategory, clientId),
};

export type ApiKeys = Aggregate<ApiKeyState, ApiKeyCommand, ApiKeyEvent>;
