import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const connection = await sesame.ssoConnections.get(v.org_domain);
  return connection;
});
