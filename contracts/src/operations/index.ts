import type { Operation } from './operation';
import { oauthOperations } from './oauth.operations';
import { organizationOperations } from './organizations.operations';

export * from './operation';
export * from './oauth.operations';
export * from './organizations.operations';

/** Every operation of the gateway, in the order they are documented. */
export const operations: Operation[] = [...organizationOperations, ...oauthOperations];
