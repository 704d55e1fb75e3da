import type { Environment } from '../common/environment.schema';

export type ApiKeyEvent =
  | {
      type: 'ApiKeyCreated';
      data: {
        client_id: string;
        name: string;
        secret_hash: string;
        environment: Environment;
        scopes: string[];
        at: string;
      };
    }
  | { type: 'ApiKeyRevoked'; data: { client_id: string; at: string } };

export type SigningKeyEvent =
  | {
      type: 'SigningKeyGenerated';
      data: {
        kid: string;
        alg: 'RS256';
        public_jwk: Record<string, unknown>;
        /** The private JWK, AES-256-GCM encrypted with the configured key ring. */
        encrypted_private_jwk: string;
        at: string;
      };
    }
  | { type: 'SigningKeyRetired'; data: { kid: string; at: string } };
