import { organizationAcknowledgementCategory, organizationProvisioners } from '@sesame/contracts';
import { loadConfig } from '@sesame/platform';
import { createMailer } from '@sesame/platform/mail';
import { subscribeToServiceEvents } from '@sesame/platform/messaging';
import { ServiceRuntime, runMain } from '@sesame/platform/runtime';
import { organizationCascadeReactor } from './cascade/organization-cascade.reactor';
import { identityConfigSchema } from './config';
import { assembleIdentity } from './index';
import { organizationProvisioningReactor } from './organizations/provisioning/organization-provisioning.reactor';
import { metakeyCleanupReactor } from './user-metakeys/metakey-cleanup.reactor';
import { userMetakeyStreamCategory } from './user-metakeys/projections/user-metakeys.projection';

/** The identity service: organizations, users, admins, groups, user metakeys and redirect URIs. */
runMain(async () => {
  const config = loadConfig(identityConfigSchema);
  const runtime = await ServiceRuntime.create('identity', config);
  const { organizations, metakeys, users, admins, groups } = assembleIdentity(runtime, config, createMailer(config, runtime));
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
