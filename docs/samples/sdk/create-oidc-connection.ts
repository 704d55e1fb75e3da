import { snippet } from './snippet';

export default snippet<'org_domain' | 'org_email_domain'>(async (sesame, v) => {
  const connection = await sesame.ssoConnections.create(v.org_domain, {
    type: 'oidc',
    oidc_issuer: `https://login.${v.org_email_domain}`,
    oidc_client_id: 'sesame-globex',
    oidc_client_secret: 's3cr3t-from-the-identity-provider',
  });
  return connection;
});
