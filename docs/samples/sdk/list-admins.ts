import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const admins = await sesame.admins.list(v.org_domain).toArray();
  return admins;
});
