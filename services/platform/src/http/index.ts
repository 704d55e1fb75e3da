/** `@sesame/platform/http`: outbound HTTP through the egress proxy (undici). */
export * from './outbound-proxy';
export * from './outbound-agent';
export * from './target-address';
