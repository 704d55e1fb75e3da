export * from './message-catalogue';
export * from './message-templates';
export * from './render-message';
export * from './accept-language';
