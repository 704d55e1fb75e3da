import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 422, fieldErrors { domain: ["can't be changed"] }
  await sesame.organizations.update(v.org_domain, { domain: 'acme' });
});
