/**
 * `@sesame/platform/read-model`: the MongoDB read-model store (`openReadModels` in `/runtime` loads
 * it only when it is configured); the port and the in-memory store are in the root entry.
 */
export * from './mongodb.read-model';
