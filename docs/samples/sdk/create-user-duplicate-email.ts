import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_email'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 422, fieldErrors { email: ['has already been taken'] }
  await sesame.users.create(v.org_domain, { email: v.user_email });
});
