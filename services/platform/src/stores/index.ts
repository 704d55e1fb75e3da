/**
 * `@sesame/platform/stores`: the event store and read models the configuration names
 * (`openEventStore`, `openReadModels`), for processes without the service runtime (the CLI, tests);
 * their drivers are loaded only when configured.
 */
export * from '../runtime/stores';
