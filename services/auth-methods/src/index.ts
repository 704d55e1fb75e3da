export * from './api-keys/domain/api-key.decider';
export * from './signing-keys/signing-key-set.decider';
export { TokenEndpoint } from './oauth/token-endpoint';
