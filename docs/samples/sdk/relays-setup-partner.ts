import { snippet } from './snippet';

export default snippet<'partner_name'>(async (sesame, v) => {
  const partner = await sesame.organizations.create({ name: v.partner_name });
  return partner;
});
