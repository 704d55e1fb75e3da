import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  // Rejects with a SesameApiError: status 422, fieldErrors { phone_number: ['not a phone number'] }
  await sesame.users.create(v.org_domain, { email: 'grace.hopper@example.org', phone_number: '+33 6 12' });
});
