import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const connection = await sesame.ssoConnections.create(v.org_domain, {
    provider_type: 'okta',
    users_access_policy: 'provision_new_users',
    number_users_provisioning_limit: 99,
  });
  return connection;
});
