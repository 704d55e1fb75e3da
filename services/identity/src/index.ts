export * from './organizations/domain/organization.decider';
export * from './organizations/domain/domain-slug';
export { registerOrganizations } from './organizations/organizations.module';
