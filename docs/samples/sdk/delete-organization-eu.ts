import { snippet } from './snippet';

export default snippet<'org_eu_domain'>(async (sesame, v) => {
  const deleted = await sesame.organizations.delete(v.org_eu_domain);
  return deleted;
});
