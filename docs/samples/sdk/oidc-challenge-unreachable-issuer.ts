import { snippet } from './snippet';

export default snippet<'org_email_domain' | 'org_domain'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 422, fieldErrors { org_domain: [...] }
  await sesame.ssoConnections.challenge({
    redirect_uri: `https://app.${v.org_email_domain}/auth/callback`,
    org_domain: v.org_domain,
  });
});
