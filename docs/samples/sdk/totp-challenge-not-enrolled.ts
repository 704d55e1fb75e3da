import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_id'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 422, fieldErrors { user_id: ['is not enrolled in TOTP'] }
  await sesame.totp.challenge(v.org_domain, v.user_id);
});
