export * from './core/api-keys/domain/api-key.decider';
export * from './core/signing-keys/signing-key-set.decider';
export { TokenEndpoint } from './core/oauth/token-endpoint';
