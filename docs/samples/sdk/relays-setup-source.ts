import { snippet } from './snippet';

export default snippet<'source_name'>(async (sesame, v) => {
  const source = await sesame.organizations.create({ name: v.source_name });
  return source;
});
