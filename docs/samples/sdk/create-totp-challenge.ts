import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_id'>(async (sesame, v) => {
  const challenge = await sesame.totp.challenge(v.org_domain, v.user_id);
  return challenge;
});
