import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_email'>(async (sesame, v) => {
  const user = await sesame.users.create(v.org_domain, { email: v.user_email, phone_number: '+33612345678' });
  return user;
});
