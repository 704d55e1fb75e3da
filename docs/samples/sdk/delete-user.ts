import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_id'>(async (sesame, v) => {
  const deleted = await sesame.users.delete(v.org_domain, v.user_id);
  return deleted;
});
