import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 422, fieldErrors { expiry_in_seconds: ['must be between 30 and 900'] }
  await sesame.totp.updateConnection(v.org_domain, { expiry_in_seconds: 10 });
});
