import { organizationAcknowledgementCategory, organizationProvisioners } from '@sesame/contracts';
import { loadConfig } from '@sesame/platform';
import { createMailer } from '@sesame/platform/mail';
import { subscribeToServiceEvents } from '@sesame/platform/messaging';
import { ServiceRuntime, runMain } from '@sesame/platform/runtime';
import { registerAdmins } from './admins/admins.module';
import { organizationCascadeReactor } from './cascade/organization-cascade.reactor';
import { identityConfigSchema, userLimitsOf } from './config';
import { registerDevOutbox } from './dev/dev-outbox';
import { registerGroups } from './groups/groups.module';
import { registerOrganizations } from './organizations/organizations.module';
import { organizationProvisioningReactor } from './organizations/provisioning/organization-provisioning.reactor';
import { registerRedirectUris } from './redirect-uris/redirect-uris.module';
import { metakeyCleanupReactor } from './user-metakeys/metakey-cleanup.reactor';
import { userMetakeyStreamCategory } from './user-metakeys/projections/user-metakeys.projection';
import { registerUserMetakeys } from './user-metakeys/user-metakeys.module';
import { registerUsers } from './users/users.module';

runMain(async () => {
  const config = loadConfig(identityConfigSchema);
  const runtime = await ServiceRuntime.create('identity', config);
  const organizations = registerOrganizations(runtime);
  const metakeys = registerUserMetakeys(runtime);
  const users = registerUsers(runtime, organizations, metakeys, userLimitsOf(config));
  const admins = registerAdmins(runtime, config, organizations, createMailer(config, runtime));
  const groups = registerGroups(runtime, organizations, users);
  registerRedirectUris(runtime);
  registerDevOutbox(runtime);
  await runtime.start();

  const { nc, logger, projections, eventStore } = runtime;
  const prefix = config.SESAME_PREFIX;
  const reactions = [
    subscribeToServiceEvents({
      nc,
      prefix,
      source: 'identity',
      consumer: 'identity-organization-cascade',
      onCommit: organizationCascadeReactor({
        eventStore,
        organizations,
        users,
        admins,
        groups,
        projections,
        logger,
        now: () => new Date(),
      }),
      logger,
    }),
    subscribeToServiceEvents({
      nc,
      prefix,
      source: 'identity',
      consumer: 'identity-metakey-cleanup',
      category: userMetakeyStreamCategory,
      onCommit: metakeyCleanupReactor({ metakeys, users, projections, logger }),
      logger,
    }),
    ...organizationProvisioners.map((service) =>
      subscribeToServiceEvents({
        nc,
        prefix,
        source: service,
        consumer: `identity-organization-provisioning-from-${service}`,
        category: organizationAcknowledgementCategory,
        onCommit: organizationProvisioningReactor(organizations, service),
        logger,
      }),
    ),
  ];
  runtime.onShutdown(async () => {
    await Promise.all(reactions.map((reaction) => reaction.stop()));
  });
});
