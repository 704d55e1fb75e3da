import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_email'>(async (sesame, v) => {
  const user = await sesame.users.get(v.org_domain, v.user_email);
  return user;
});
