import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const directorySync = await sesame.directorySyncs.create(v.org_domain, { provider_type: 'azure_ad', active: true });
  return directorySync;
});
