import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const connection = await sesame.totp.getConnection(v.org_domain);
  return connection;
});
