import { snippet } from './snippet';

export default snippet<'org_domain' | 'new_user_email'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 422, fieldErrors { plain_text: ['is among the most common passwords'] }
  await sesame.passwords.create({ org_domain: v.org_domain, user_email: v.new_user_email, plain_text: 'password123' });
});
