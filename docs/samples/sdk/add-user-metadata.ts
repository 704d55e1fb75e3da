import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_id'>(async (sesame, v) => {
  const user = await sesame.users.addMetadata(v.org_domain, v.user_id, { key: 'crm_id', value: 'CRM-20931' });
  return user;
});
