import { snippet } from './snippet';

export default snippet<'second_redirect_uri_id'>(async (sesame, v) => {
  const redirectUri = await sesame.redirectUris.setDefault(v.second_redirect_uri_id);
  return redirectUri;
});
