import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_id'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 401, type 'invalid_code'
  await sesame.totp.validateEnrollment(v.org_domain, v.user_id, { code: '000000' });
});
