import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const deleted = await sesame.organizations.delete(v.org_domain);
  return deleted;
});
