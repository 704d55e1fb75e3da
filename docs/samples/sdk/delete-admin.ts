import { snippet } from './snippet';

export default snippet<'org_domain' | 'admin_email'>(async (sesame, v) => {
  const deleted = await sesame.admins.delete(v.org_domain, v.admin_email);
  return deleted;
});
