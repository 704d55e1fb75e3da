import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 422, fieldErrors { metadata: [...] }
  await sesame.ssoConnections.update(v.org_domain, { metadata: '<md:EntityDescriptor/>' });
});
