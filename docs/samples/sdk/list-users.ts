import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const users = [];
  for await (const user of sesame.users.list(v.org_domain, { per_page: 10 })) users.push(user);
  return users;
});
