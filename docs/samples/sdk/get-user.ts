import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_id'>(async (sesame, v) => {
  const user = await sesame.users.get(v.org_domain, v.user_id);
  return user;
});
