import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_id'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 403, type 'inactive_totp'
  await sesame.totp.challenge(v.org_domain, v.user_id);
});
