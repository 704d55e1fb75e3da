import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_email'>(async (sesame, v) => {
  const user = await sesame.users.create(v.org_domain, {
    email: v.user_email,
    phone_number: '+33612345678',
    address: { country: 'FR', locality: 'Lyon', postal_code: '69002' },
    profile: { given_name: 'Ada', family_name: 'Lovelace', gender: 'female', locale: 'en', zoneinfo: 'Europe/Paris' },
  });
  return user;
});
