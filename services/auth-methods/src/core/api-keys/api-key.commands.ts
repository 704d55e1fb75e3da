import { randomUUID } from 'node:crypto';
import type { Environment, Scope } from '@sesame/contracts';
import { handleCommand, hashSecret, randomSecret, streamName } from '@sesame/platform';
import type { CommandHandlerDeps, EventMetadata } from '@sesame/platform';
import { apiKeyDecider } from './domain/api-key.decider';
import type { ApiKeyState } from './domain/api-key.decider';
import { apiKeyStreamCategory } from './projections/api-keys.projection';

export interface CreatedApiKey {
  client_id: string;
  /** Shown once: only its hash is stored. */
  client_secret: string;
  name: string;
  environment: Environment;
  scopes: Scope[];
  created_at: string;
}

/** Creates an API key; used by the RPC handler and by the `sesame` command-line tool alike. */
export async function createApiKey(
  deps: CommandHandlerDeps<ApiKeyState>,
  input: { name: string; environment: Environment; scopes: Scope[] },
  metadata: EventMetadata,
  now = new Date(),
): Promise<CreatedApiKey> {
  const clientId = randomUUID();
  const secret = randomSecret(32);
  const at = now.toISOString();
  await handleCommand(
    deps,
    apiKeyDecider,
    streamName(apiKeyStreamCategory, clientId),
    {
      type: 'CreateApiKey',
      data: {
        client_id: clientId,
        name: input.name,
        secret_hash: hashSecret(secret),
        environment: input.environment,
        scopes: input.scopes,
        at,
      },
    },
    metadata,
  );
  return {
    client_id: clientId,
    client_secret: secret,
    name: input.name,
    environment: input.environment,
    scopes: input.scopes,
    created_at: at,
  };
}

export async function revokeApiKey(
  deps: CommandHandlerDeps<ApiKeyState>,
  clientId: string,
  metadata: EventMetadata,
  now = new Date(),
): Promise<ApiKeyState> {
  const result = await handleCommand(
    deps,
    apiKeyDecider,
    streamName(apiKeyStreamCategory, clientId),
    { type: 'RevokeApiKey', data: { at: now.toISOString() } },
    metadata,
  );
  return result.state;
}
