import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const directorySync = await sesame.directorySyncs.get(v.org_domain);
  return directorySync;
});
