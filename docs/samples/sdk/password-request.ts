import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_email' | 'org_email_domain'>(async (sesame, v) => {
  const reset = await sesame.passwords.request({
    org_domain: v.org_domain,
    user_email: v.user_email,
    redirect_uri: `https://app.${v.org_email_domain}/reset-password`,
    find_or_create_user: false,
  });
  return reset;
});
