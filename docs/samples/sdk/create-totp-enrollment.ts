import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_id'>(async (sesame, v) => {
  const enrollment = await sesame.totp.enroll(v.org_domain, v.user_id, { force_enroll: false });
  return enrollment;
});
