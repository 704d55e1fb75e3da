import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 422, fieldErrors { plain_text_min_length: [...] }
  await sesame.passwords.updateConnection(v.org_domain, { plain_text_min_length: 50, plain_text_max_length: 40 });
});
