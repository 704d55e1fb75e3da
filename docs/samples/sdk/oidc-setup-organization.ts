import { snippet } from './snippet';

export default snippet<'org_name' | 'org_email_domain'>(async (sesame, v) => {
  const organization = await sesame.organizations.create({ name: v.org_name, allowed_email_domains: [v.org_email_domain] });
  return organization;
});
