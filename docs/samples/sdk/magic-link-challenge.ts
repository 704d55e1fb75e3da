import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_email' | 'org_email_domain'>(async (sesame, v) => {
  const challenge = await sesame.magicLinks.challenge({
    org_domain: v.org_domain,
    email: v.user_email,
    redirect_uri: `https://app.${v.org_email_domain}/auth/callback`,
    find_or_create_user: true,
  });
  return challenge;
});
