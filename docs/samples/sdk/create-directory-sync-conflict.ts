import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 409, type 'directory_sync_already_exists'
  await sesame.directorySyncs.create(v.org_domain, { provider_type: 'azure_ad', active: true });
});
