import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const connection = await sesame.ssoConnections.update(v.org_domain, { oidc_scopes: ['email', 'profile', 'groups'] });
  return connection;
});
