import { snippet } from './snippet';

export default snippet<'partner_domain'>(async (sesame, v) => {
  const deleted = await sesame.organizations.delete(v.partner_domain);
  return deleted;
});
