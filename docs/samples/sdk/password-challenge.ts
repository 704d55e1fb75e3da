import { snippet } from './snippet';

export default snippet<'org_domain' | 'user_email'>(async (sesame, v) => {
  const signIn = await sesame.passwords.challenge({
    org_domain: v.org_domain,
    user_email: v.user_email,
    plain_text: 'correct horse battery staple 42',
  });
  return signIn;
});
