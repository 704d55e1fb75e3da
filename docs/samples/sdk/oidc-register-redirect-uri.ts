import { snippet } from './snippet';

export default snippet<'org_email_domain'>(async (sesame, v) => {
  const redirectUri = await sesame.redirectUris.create({ url: `https://app.${v.org_email_domain}/auth/callback` });
  return redirectUri;
});
