import { randomUUID } from 'node:crypto';
import type { Environment, Scope } from '@sesame/contracts';
import { hashSecret, randomSecret } from '@sesame/platform';
import type { EventMetadata } from '@sesame/platform';
import type { ApiKeys } from './api-key.aggregate';
import type { ApiKeyState } from './domain/api-key.decider';

export interface CreatedApiKey {
  client_id: string;
  /** Shown once: only its hash is stored. */
  client_secret: string;
  name: string;
  environment: Environment;
  scopes: Scope[];
  created_at: string;
}

/** Creates an API key (the `sesame` command-line tool). */
export async function createApiKey(
  apiKeys: ApiKeys,
  input: { name: string; environment: Environment; scopes: Scope[] },
  metadata: EventMetadata,
  now = new Date(),
): Promise<CreatedApiKey> {
  const clientId = randomUUID();
  const secret = randomSecret(32);
  const at = now.toISOString();
  await apiKeys.handle(
    clientId,
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
  apiKeys: ApiKeys,
  clientId: string,
  metadata: EventMetadata,
  now = new Date(),
): Promise<ApiKeyState> {
  const { state } = await apiKeys.handle(clientId, { type: 'RevokeApiKey', data: { at: now.toISOString() } }, metadata);
  return state;
}
