import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const connection = await sesame.magicLinks.createConnection(v.org_domain, { active: true, find_or_create_user: true });
  return connection;
});
