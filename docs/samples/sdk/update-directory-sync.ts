import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const directorySync = await sesame.directorySyncs.update(v.org_domain, { active: false, rotate_auth_secret_token: false });
  return directorySync;
});
