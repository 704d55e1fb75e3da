/** Test kits, used by the test tiers only (not part of the built package). */
export * from './decider-specification';
export * from './test-prefix';
export * from './container-runtime';
export * from './event-store.contract';
export * from './read-model.contract';
export * from './mailer.contract';
export * from './sms-sender.contract';
export * from './connect-proxy';
export * from './service-specification';
export * from './identity-answers';
export * from './silent-consumers';
export * from './mongodb-container';
