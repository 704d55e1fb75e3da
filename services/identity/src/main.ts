import { ServiceRuntime, loadConfig, runMain } from '@sesame/platform';
import { identityConfigSchema } from './config';
import { registerOrganizations } from './organizations/organizations.module';

runMain(async () => {
  const runtime = await ServiceRuntime.create('identity', loadConfig(identityConfigSchema));
  registerOrganizations(runtime);
  await runtime.start();
});
