import { snippet } from './snippet';

export default snippet<'redirect_uri_id'>(async (sesame, v) => {
  const redirectUri = await sesame.redirectUris.setDefault(v.redirect_uri_id);
  return redirectUri;
});
