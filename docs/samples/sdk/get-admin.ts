import { snippet } from './snippet';

export default snippet<'org_domain' | 'admin_email'>(async (sesame, v) => {
  const admin = await sesame.admins.get(v.org_domain, v.admin_email);
  return admin;
});
