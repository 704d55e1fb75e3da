import { snippet } from './snippet';

export default snippet<'source_domain'>(async (sesame, v) => {
  const deleted = await sesame.organizations.delete(v.source_domain);
  return deleted;
});
