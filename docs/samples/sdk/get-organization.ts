import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const organization = await sesame.organizations.get(v.org_domain);
  return organization;
});
