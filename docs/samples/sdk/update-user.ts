import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_id' | 'user_email'>(async (sesame, v) => {
  const user = await sesame.users.update(v.org_domain, v.user_id, { email: v.user_email, profile: { nickname: 'Ada' } });
  return user;
});
