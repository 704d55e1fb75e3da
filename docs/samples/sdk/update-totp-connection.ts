import { snippet } from './snippet';

export default snippet<'org_domain'>(async (sesame, v) => {
  const connection = await sesame.totp.updateConnection(v.org_domain, {
    active: true,
    method: 'totp_mobile_app',
    expiry_in_seconds: 30,
  });
  return connection;
});
