import { snippet } from './snippet';

export default snippet<'org_domain' | 'admin_email'>(async (sesame, v) => {
  const admin = await sesame.admins.invite(v.org_domain, { email: v.admin_email, allowed_setups: ['sso', 'directory_sync'] });
  return admin;
});
