import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const connection = await sesame.passwords.createConnection(v.org_domain, {
    plain_text_min_length: 8,
    plain_text_max_length: 40,
  });
  return connection;
});
